package io.fsindex.api;

import java.nio.file.Path;
import java.util.List;

/**
 * Receives one scan's listings and applies them to the index. The scan drives it top-down: {@link #begin} once,
 * then {@link #applyListings} for the directories it lists, in groups ({@link #applyInParts} for a huge one), or
 * {@link #unreadable} / {@link #vanished} when listing fails, then {@link #finish}. fsindex's own sink writes to
 * the database with the concurrent-scan protocol; a sink is used by one scan on one thread.
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
     * Applies a group of listings as {@link #applyAll} does, where a listing's directory may not be known yet: a scan
     * reads listings ahead of applying them, so a group can hold a directory's listing together with its parent's.
     * Listing {@code i} is of {@code directories.get(i)}, or, where that is null, of the directory at
     * {@code paths.get(i)} if an earlier listing of the group returns it among its subdirectories; otherwise that
     * listing is not applied (the scan does not own the directory). A sink may apply the group in one transaction.
     *
     * @param paths       each listing's directory path
     * @param directories each listing's directory, or null where an earlier listing of the group must claim it
     * @param listings    each directory's entries, in the same order
     * @return one result per listing, in the same order; null for a listing that was not applied
     */
    default List<Applied> applyListings(List<Path> paths, List<Directory> directories,
                                        List<List<WalkedEntry>> listings) {
        List<Applied> out = new java.util.ArrayList<>(paths.size());
        java.util.Map<Path, Directory> claimed = new java.util.HashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            Directory dir = directories.get(i) != null ? directories.get(i) : claimed.remove(paths.get(i));
            Applied a = dir == null ? null : apply(dir, listings.get(i));
            out.add(a);
            if (a != null) {
                a.subdirectories().forEach(sub -> claimed.put(sub.path(), sub));
            }
        }
        return out;
    }

    /**
     * Starts applying one directory's listing in parts, in the order they are read, so that a scan never holds a
     * directory of millions of entries whole. The default gathers the parts and applies them with {@link #apply}
     * once the last is in; a sink that can apply a part on its own should override it.
     *
     * @param directory the directory listed
     * @return where to apply the listing's parts
     */
    default ListingInParts applyInParts(Directory directory) {
        List<WalkedEntry> gathered = new java.util.ArrayList<>();
        Applied[] whole = {new Applied(List.of(), 0, 0, 0, 0, 0)};
        return new ListingInParts() {
            @Override
            public Applied applyPart(List<WalkedEntry> part, boolean last) {
                gathered.addAll(part);
                if (!last) {
                    return new Applied(List.of(), 0, 0, 0, 0, 0);
                }
                Applied a = apply(directory, gathered);
                whole[0] = new Applied(List.of(), a.added(), a.modified(), a.moved(), a.unchanged(), a.skipped());
                return a;
            }

            @Override
            public Applied applied() {
                return whole[0];
            }
        };
    }

    /** One directory's listing being applied part by part ({@link #applyInParts}). */
    interface ListingInParts {
        /**
         * Applies the next part of the listing.
         *
         * @param part the part's entries
         * @param last whether no part comes after it
         * @return what applying the part did, with the subdirectories it claimed
         */
        Applied applyPart(List<WalkedEntry> part, boolean last);

        /**
         * What the parts applied so far did together.
         *
         * @return the parts' counts added up, without subdirectories (each part returned its own)
         */
        Applied applied();
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
