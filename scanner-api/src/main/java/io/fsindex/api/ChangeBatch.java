package io.fsindex.api;

import java.util.List;

/**
 * One page of the change feed.
 *
 * @param changes       the changes after the cursor asked for, in order, without gaps; empty if there are none yet
 * @param nextCursor    the cursor to ask with next time (the last change's {@code seq}, or the cursor asked for if
 *                      there were none)
 * @param resyncNeeded  true if changes after the cursor asked for were already pruned from the bounded feed: the
 *                      consumer missed some and must rebuild its view from the index (then continue from
 *                      {@code nextCursor}, the feed's current end); {@code changes} is empty then
 */
public record ChangeBatch(List<Change> changes, long nextCursor, boolean resyncNeeded) {
    /**
     * Copies {@code changes}, so the batch cannot change afterwards.
     *
     * @param changes      the changes after the cursor asked for, in order, without gaps; empty if there are none yet
     * @param nextCursor   the cursor to ask with next time (the last change's {@code seq}, or the cursor asked for if
     *                     there were none)
     * @param resyncNeeded true if changes after the cursor asked for were already pruned from the bounded feed: the
     *                     consumer missed some and must rebuild its view from the index (then continue from {@code
     *                     nextCursor}, the feed's current end); {@code changes} is empty then
     */
    public ChangeBatch {
        changes = List.copyOf(changes);
    }
}
