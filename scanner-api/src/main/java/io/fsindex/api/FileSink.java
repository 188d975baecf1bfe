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

    /**
     * A directory this scan owns and must list next: no newer scan has listed it.
     *
     * @param id       the directory's row id
     * @param parentId its parent's row id, or 0 for a filesystem root
     * @param name     its name
     * @param path     its absolute path
     */
    record Directory(long id, long parentId, String name, Path path) {
    }

    /**
     * What applying one listing did, and which subdirectories the scan must descend into.
     *
     * @param subdirectories the subdirectories this scan must list next
     * @param added          rows inserted
     * @param modified       rows whose attributes changed
     * @param moved          rows moved here from elsewhere, keeping their ids
     * @param unchanged      rows confirmed as they were
     * @param skipped        entries left alone because a newer scan covers them
     */
    record Applied(List<Directory> subdirectories, long added, long modified, long moved, long unchanged,
                   long skipped) {
        /**
         * Copies {@code subdirectories}, so the result cannot change afterwards.
         *
         * @param subdirectories the subdirectories this scan must list next
         * @param added          rows inserted
         * @param modified       rows whose attributes changed
         * @param moved          rows moved here from elsewhere, keeping their ids
         * @param unchanged      rows confirmed as they were
         * @param skipped        entries left alone because a newer scan covers them
         */
        public Applied {
            subdirectories = List.copyOf(subdirectories);
        }
    }

    /**
     * Records the trunk leading to the scan root (without touching the trunk's other children) and the root itself.
     * The result's subdirectories hold the root if the scan must list it: empty if the root is not a directory or a
     * newer scan covers it.
     *
     * @param trunk    the entries from the filesystem root down to the scan root's parent
     * @param root     the scan root's entry
     * @param rootPath the scan root's absolute path
     * @return what was recorded, with the root as the only subdirectory if the scan must list it
     */
    Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath);

    /**
     * Records a directory's complete listing: everything not in it is gone, unless a newer scan says otherwise.
     *
     * @param directory the directory listed
     * @param entries   everything it holds
     * @return what applying the listing did
     */
    Applied apply(Directory directory, List<WalkedEntry> entries);

    /**
     * Applies several directories' listings as {@link #apply} would one by one, in order; a sink may apply them in
     * one transaction, so many small directories cost one commit.
     *
     * @param directories the directories listed
     * @param listings    each directory's entries, in the same order
     * @return one result per listing, in the same order
     */
    default List<Applied> applyAll(List<Directory> directories, List<List<WalkedEntry>> listings) {
        List<Applied> out = new java.util.ArrayList<>(directories.size());
        for (int i = 0; i < directories.size(); i++) {
            out.add(apply(directories.get(i), listings.get(i)));
        }
        return out;
    }

    /**
     * The directory exists but could not be listed: keeps its children as they are.
     *
     * @param directory the directory that could not be listed
     */
    void unreadable(Directory directory);

    /**
     * The directory vanished, or was replaced by an entry of another kind, while scanning.
     *
     * @param directory   the directory that is gone
     * @param replacement what is there now, or {@code null} if nothing is
     */
    void vanished(Directory directory, FileStat replacement);

    /**
     * The scan root no longer exists: its row (if any) and subtree go, unless a newer scan covers it.
     *
     * @param trunk    the entries from the filesystem root down to the scan root's parent
     * @param rootName the missing root's name
     */
    void removeRoot(List<WalkedEntry> trunk, String rootName);

    /**
     * Ends the scan. A completed scan deletes what it found gone and returns how many rows that removed; a scan that
     * did not complete deletes nothing more and returns 0.
     *
     * @param completed whether the scan listed everything it had to
     * @return how many rows the end of the scan deleted
     */
    long finish(boolean completed);
}
