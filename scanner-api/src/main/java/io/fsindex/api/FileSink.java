package io.fsindex.api;

import java.nio.file.Path;
import java.util.List;

/**
 * Receives one scan's listings and applies them to the index. The scan drives it top-down: {@link #begin} once,
 * then {@link #apply} for each directory it lists (or {@link #unreadable} / {@link #vanished} when listing fails),
 * then {@link #finish}. fsindex's own sink writes to the database with the concurrent-scan protocol; a sink is used
 * by one scan on one thread.
 */
public interface FileSink {

    /** A directory this scan owns and must list next: no newer scan has listed it. */
    record Directory(long id, long parentId, String name, Path path) {
    }

    /** What applying one listing did, and which subdirectories the scan must descend into. */
    record Applied(List<Directory> subdirectories, long added, long modified, long moved, long unchanged,
                   long skipped) {
        public Applied {
            subdirectories = List.copyOf(subdirectories);
        }
    }

    /**
     * Records the trunk leading to the scan root (without touching the trunk's other children) and the root itself.
     * The result's subdirectories hold the root if the scan must list it: empty if the root is not a directory or a
     * newer scan covers it.
     *
     * @param trunk the entries from the filesystem root down to the scan root's parent
     * @param root  the scan root's entry
     */
    Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath);

    /** Records a directory's complete listing: everything not in it is gone, unless a newer scan says otherwise. */
    Applied apply(Directory directory, List<WalkedEntry> entries);

    /**
     * Applies several directories' listings as {@link #apply} would one by one, in order; a sink may apply them in
     * one transaction, so many small directories cost one commit. Returns one result per listing.
     */
    default List<Applied> applyAll(List<Directory> directories, List<List<WalkedEntry>> listings) {
        List<Applied> out = new java.util.ArrayList<>(directories.size());
        for (int i = 0; i < directories.size(); i++) {
            out.add(apply(directories.get(i), listings.get(i)));
        }
        return out;
    }

    /** The directory exists but could not be listed: keeps its children as they are. */
    void unreadable(Directory directory);

    /** The directory vanished, or was replaced by {@code replacement} (non-null) of another kind, while scanning. */
    void vanished(Directory directory, FileStat replacement);

    /** The scan root no longer exists: its row (if any) and subtree go, unless a newer scan covers it. */
    void removeRoot(List<WalkedEntry> trunk, String rootName);

    /**
     * Ends the scan. A completed scan deletes what it found gone and returns how many rows that removed; a scan that
     * did not complete deletes nothing more and returns 0.
     */
    long finish(boolean completed);
}
