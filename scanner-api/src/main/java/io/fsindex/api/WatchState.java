package io.fsindex.api;

import java.time.Instant;

/**
 * A snapshot of a watch's state ({@link IndexWatch#state()}).
 *
 * @param watchedDirectories   directories registered for change notifications (on Linux, one inotify watch each)
 * @param unwatchedSubtrees    subtrees that could not be watched and are scanned periodically instead
 * @param pendingDirectories   directories with changes not yet scanned (waiting for their settle window or a scan)
 * @param scans                scans the watch has run, the initial one included
 * @param fallbacks            times events were lost or a directory could not be watched, each answered with a scan
 *                             of the affected subtree
 * @param lastFullRescan       when the last complete scan of the whole tree finished, or {@code null} if none has in
 *                             this watch (the initial scan was skipped and none ran since)
 * @param rootMissing          the watched root is gone; nothing was deleted and watching resumes when it is back
 */
public record WatchState(long watchedDirectories, long unwatchedSubtrees, long pendingDirectories, long scans,
                         long fallbacks, Instant lastFullRescan, boolean rootMissing) {
}
