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
