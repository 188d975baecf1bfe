package io.fsindex.core.feed;

import java.time.Duration;

/**
 * How long gone entries and old changes are kept.
 *
 * @param orphanRetention how long the row of an entry found gone is kept (invisible) so that a later scan finding
 *                        the same file elsewhere moves it, keeping its id; zero deletes gone rows at once
 * @param feedCapacity    how many of the newest changes the change feed keeps
 */
public record FeedSettings(Duration orphanRetention, long feedCapacity) {
    public static final FeedSettings DEFAULTS = new FeedSettings(Duration.ofDays(7), 1_000_000);
}
