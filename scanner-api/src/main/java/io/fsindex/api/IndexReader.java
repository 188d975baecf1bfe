package io.fsindex.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Read access to an index, for consumers that must not be able to change it. {@code FsIndex} implements it; a handle
 * opened with {@code FsIndex.builder()...buildReader()} implements only this: it never creates or upgrades the
 * tables, has no method that writes, and its database connections are read-only at the database level, so a write
 * attempted through them fails too. Reading is safe while scans write through other handles or processes.
 * Thread-safe.
 */
public interface IndexReader extends AutoCloseable {

    /**
     * Returns the entry recorded for {@code path}, if any (made absolute; found as given, then with its parent
     * resolved to its real path, so a recorded link is found as the link, then resolved whole as scans resolve their
     * root, so a root scanned through a link is found through it).
     *
     * @param path the path to look up
     * @return the entry, or empty if the index holds none for the path
     */
    Optional<FileEntry> lookup(Path path);

    /**
     * Returns the recorded children of directory {@code path} (found as {@link #lookup} finds it), sorted by name;
     * empty if it is not recorded.
     *
     * @param path the directory
     * @return its children
     */
    List<FileEntry> children(Path path);

    /**
     * Returns the live entry with row id {@code id} (as carried by {@link FileEntry#id()} and {@link Change#id()}),
     * with its path as the index records it; empty if no such row exists or its entry was found gone.
     *
     * @param id the row id
     * @return the entry, or empty
     */
    Optional<FileEntry> lookup(long id);

    /**
     * Returns one page of the recorded children of directory {@code path} (found as {@link #lookup(Path)} finds it):
     * up to {@code limit} of them named after {@code afterName}, ordered by name in code point order, so a directory
     * of any size can be read a page at a time; to read on, pass the last name of a page. Empty if the directory is
     * not recorded.
     *
     * @param path      the directory
     * @param afterName the last name of the previous page, or {@code null} for the first page
     * @param limit     the most entries to return
     * @return the page
     */
    List<FileEntry> children(Path path, String afterName, int limit);

    /**
     * Returns one page of the live entries matching {@code query}, ordered by id. No entry is returned twice, and an
     * entry that exists and matches throughout is returned once even while scans commit between pages (a changed or
     * moved entry keeps its id); one a scan adds meanwhile may or may not be, as concurrent transactions can commit
     * ids out of order (follow changes through {@link #changesSince} instead).
     *
     * @param query what to look for and where to continue
     * @return the page and the cursor to continue with
     */
    FindPage find(FileQuery query);

    /**
     * Sums up the subtree below directory {@code path} (found as {@link #lookup(Path)} finds it), like {@code du}.
     *
     * @param path the directory
     * @return its totals, or empty if it is not recorded as a directory
     */
    Optional<DirectorySize> directorySize(Path path);

    /**
     * Returns the totals of the directories directly inside {@code path}, largest first (ties by id), at most
     * {@code limit} of them.
     *
     * @param path  the directory
     * @param limit the most directories to return
     * @return the largest subdirectories, or an empty list if {@code path} is not recorded
     */
    List<DirectorySize> largestSubdirectories(Path path, int limit);

    /**
     * Returns groups of live regular files with the same size and content hash (only files whose content hash a
     * scan computed, see {@link ContentHashing#FULL}), largest waste ({@link DuplicateGroup#wastedBytes()}) first.
     *
     * @param under  only files below this directory, or {@code null} for the whole index
     * @param limit  the most groups to return
     * @return the groups
     */
    List<DuplicateGroup> duplicates(Path under, int limit);

    /**
     * Summarises the index: schema version, row counts and up to {@code recentScans} most recent scans.
     *
     * @param recentScans how many of the most recent scans to include
     * @return the summary
     */
    IndexInfo info(int recentScans);

    /**
     * Returns up to {@code limit} changes committed after {@code cursor}, in order and without gaps, with the cursor
     * to ask with next; if the bounded feed already dropped changes after {@code cursor}, says
     * {@link ChangeBatch#resyncNeeded()} instead. See {@code FsIndex.changesSince}.
     *
     * @param cursor the last change already seen: 0 for everything the feed holds
     * @param limit  the most changes to return
     * @return the changes and the cursor to ask with next
     */
    ChangeBatch changesSince(long cursor, int limit);

    /** {@return the number of the last change committed so far: a cursor for {@link #changesSince} that skips the past} */
    long changeFeedEnd();

    /** {@return the name of the database engine, e.g. "SQLite"} */
    String databaseName();

    /** Releases the database (a data source fsindex opened itself is closed; an application's is left open). */
    @Override
    void close();
}
