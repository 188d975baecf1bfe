package io.fsindex.core;

import io.fsindex.core.content.GarbageCollector;
import io.fsindex.core.content.ContentStatements;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Durations;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.Lazy;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.internal.TableNames;
import io.fsindex.core.query.IndexReads;
import io.fsindex.core.scan.FileNameEncoding;
import io.fsindex.core.scan.ScanLauncher;
import io.fsindex.core.scan.ScanLifecycle;
import io.fsindex.core.scope.ScopeStore;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.GarbageCollection;
import io.fsindex.api.IndexInfo;
import io.fsindex.api.IndexReader;
import io.fsindex.api.IndexWatch;
import io.fsindex.api.MountChangedException;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScanSession;
import io.fsindex.api.ScopeException;
import io.fsindex.api.Walker;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An index of files kept in a SQL database. Build one, scan paths into it, read it back:
 * <pre>{@code
 * try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:index.db").build()) {
 *     ScanResult result = index.scan(Path.of("/srv/media"));
 *     Optional<FileEntry> e = index.lookup(Path.of("/srv/media/a.jpg"));
 * }
 * }</pre>
 * Any number of scans may run at once, from this or other threads, processes or machines sharing the database; the
 * README's "Guarantees" section says what holds. An {@code FsIndex} is thread-safe; its configuration is fixed once
 * built. Consumers that must only read take an {@link IndexReader} from {@link Builder#buildReader()} instead.
 */
public final class FsIndex implements IndexReader {
    private static final Logger LOG = LoggerFactory.getLogger(FsIndex.class);

    static {
        IndexInternals.install(FsIndexInternals::new, r -> r instanceof ReadOnlyIndex ro ? ro.index() : (FsIndex) r);
    }

    final Database db;
    /*
     * What jOOQ renders is made the first time it is needed (a scan, a query beyond a lookup), not at build(): loading
     * jOOQ and rendering take a fresh JVM seconds, and opening an index or answering a lookup needs none of it.
     */
    final Lazy<Statements> statements;
    private final Lazy<ContentStatements> contentStatements;
    final IndexReads reads;
    final TableNames tables;
    private final Walker walker;
    private final FeedSettings feedSettings;
    final ScanLifecycle lifecycle;
    private final ScopeStore scopes;
    private final AutoCloseable ownedDataSource;
    final ScanLauncher launcher;
    private volatile boolean closed;

    FsIndex(IndexConfig b, DataSource dataSource, Dialect dialect, AutoCloseable owned, boolean readOnly) {
        this.tables = new TableNames(b.tablePrefix());
        Lazy<FsTables> jooqTables = new Lazy<>(() -> new FsTables(tables.prefix));
        this.db = new Database(dataSource, dialect, b.retryTimeout(), readOnly, b.serializableWrites(), owned != null);
        this.statements = new Lazy<>(() -> new Statements(dialect, jooqTables.get()));
        this.contentStatements = new Lazy<>(() -> new ContentStatements(dialect, jooqTables.get()));
        this.walker = b.walker();
        this.feedSettings = new FeedSettings(b.orphanRetention(), b.changeFeedCapacity());
        this.lifecycle = new ScanLifecycle(db, dialect, tables, jooqTables, b.scanLease(),
                b.scanIdAllocation() == ScanIdAllocation.ORDERED);
        this.reads = new IndexReads(db, statements, tables, jooqTables, lifecycle);
        this.scopes = new ScopeStore(db, tables);
        this.ownedDataSource = owned;
        this.launcher = new ScanLauncher(db, statements, contentStatements, b.walker(), feedSettings, lifecycle, scopes);
    }

    /** Starts configuring an index. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds an index from properties named {@code fsindex.} and a {@link Builder} setting ({@code fsindex.url},
     * required, for the JDBC URL; the README's configuration table lists them all). Durations accept {@code 90s},
     * {@code 5m}, {@code 1h30m} or ISO-8601 ({@link Durations}). Keys outside {@code fsindex.*} are ignored; an
     * unknown {@code fsindex.*} key is an error, so a typo cannot go unnoticed.
     *
     * @param properties the settings
     * @return the open index
     * @throws FsIndexConfigurationException if a key is unknown or a value is not valid (the message names the key
     *                                       and what it accepts), or no URL is given
     * @throws FsIndexException              if the database cannot be opened; see {@link Builder#build()}
     */
    public static FsIndex fromProperties(Properties properties) {
        return builder().properties(properties).build();
    }

    /**
     * Builds an index from environment variables, the same settings as {@link #fromProperties} with names in upper
     * snake case: {@code FSINDEX_URL} (required), {@code FSINDEX_USER}, {@code FSINDEX_PASSWORD},
     * {@code FSINDEX_TABLE_PREFIX}, {@code FSINDEX_SCHEMA_MODE}, {@code FSINDEX_RETRY_TIMEOUT} (or the older
     * {@code FSINDEX_RETRY_TIMEOUT_SECONDS}), {@code FSINDEX_ORPHAN_RETENTION},
     * {@code FSINDEX_CHANGE_FEED_CAPACITY}, {@code FSINDEX_SCAN_LEASE} and {@code FSINDEX_MAX_POOL_SIZE}. An empty
     * variable counts as unset; other {@code FSINDEX_*} variables are ignored.
     *
     * @return the open index
     * @throws FsIndexConfigurationException if a value is not valid (the message names the variable and what it
     *                                       accepts), or {@code FSINDEX_URL} is not set
     * @throws FsIndexException              if the database cannot be opened; see {@link Builder#build()}
     */
    public static FsIndex fromEnvironment() {
        return builder().environment(System.getenv()).build();
    }

    /**
     * The rules stored for exactly {@code root} (resolved to its real path), if any. A scan of {@code root} or of a path
     * below it applies the rules stored for the nearest directory at or above it; {@link #scopes()} lists them all.
     *
     * @param root the root
     * @return its stored rules, or empty if none are stored for it
     */
    public Optional<ScanScope> scope(Path root) {
        requireOpen();
        return Optional.ofNullable(scopes.scopes().get(ScopeStore.realPath(root)));
    }

    /** {@return every root with stored rules, by real path} */
    public Map<Path, ScanScope> scopes() {
        requireOpen();
        return scopes.scopes();
    }

    /**
     * Stores the rules for {@code root} (resolved to its real path), replacing those stored, so that every later scan
     * of it or of a path below it (unless a directory nearer has rules of its own), from any process, applies them. The
     * index is not changed now: the next scan of the root removes what the rules now exclude (reported
     * {@code DELETED}) and adds what they now include. A scan already running keeps the rules it started with.
     *
     * @param root  the root
     * @param rules the rules, or null to remove the stored rules (scans then apply those of a directory above, or the
     *              defaults)
     */
    public void setScope(Path root, ScanScope rules) {
        Objects.requireNonNull(root, "root");
        requireOpen();
        scopes.set(root, rules);
    }

    /** Scans {@code root} and waits for it, with default options. */
    public ScanResult scan(Path root) {
        return scan(root, ScanOptions.defaults());
    }

    /**
     * Scans {@code root} and waits for the scan to end.
     *
     * @throws ScopeException if the options bring rules other than those stored for the root, or the stored rules
     *     exclude it; nothing is scanned then
     * @throws MountChangedException if the root or a directory above it now sits on another device than when it was
     *     last scanned (a disk not mounted); nothing is scanned then, unless the options accept mount changes
     * @throws ScanFailedException if the root is missing or unreadable, or the database failed; nothing is deleted then
     *     (and before anything is written if this JVM does not read file names as UTF-8: {@link FileNameEncoding})
     * @throws CancellationException if the calling thread is interrupted (the scan is cancelled, interrupt kept)
     */
    public ScanResult scan(Path root, ScanOptions options) {
        ScanSession session = startScan(root, options);
        try {
            return session.await();
        } catch (InterruptedException e) {
            session.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while scanning " + root + "; the scan was cancelled");
        }
    }

    /** Starts scanning {@code root} in the background with default options. */
    public ScanSession startScan(Path root) {
        return startScan(root, ScanOptions.defaults());
    }

    /**
     * Starts scanning {@code root} in the background. The scan's id is allocated before this returns, so a scan
     * started after this call is newer. The root's rules and devices are checked on the scan's own thread, before it
     * reads anything else: a scan they refuse ends {@code FAILED} having changed no row, and the session's
     * {@link ScanSession#await() await} throws the {@link ScopeException} or {@link MountChangedException} that
     * {@link #scan(Path, ScanOptions)} documents.
     */
    public ScanSession startScan(Path root, ScanOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        requireOpen();
        FileNameEncoding.requireUtf8(root);
        return launcher.start(root, options);
    }

    /**
     * Scans one directory's own listing and waits for it: its entries are compared with the index, entries gone from
     * it leave the index (with everything below them), and the scan descends only into subdirectories that are new
     * to the directory (created, moved here from elsewhere, or no directory before), which it scans completely.
     * Subdirectories the index already had are not listed and nothing below them changes. It is a scan like any
     * other (it has an id, claims what it lists, and the README's guarantees hold for it); {@link #watch} runs one
     * for each directory a filesystem event names. The scan is recorded as completed with the message
     * {@value #DIRECTORY_SCAN}, so it is never taken for a scan of the whole tree.
     *
     * @param directory the directory to list
     * @param options   how to scan, as for {@link #scan(Path, ScanOptions)}
     * @return what the scan did
     * @throws ScanFailedException   as {@link #scan(Path, ScanOptions)} does
     * @throws CancellationException if the calling thread is interrupted (the scan is cancelled, interrupt kept)
     */
    public ScanResult scanDirectory(Path directory, ScanOptions options) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(options, "options");
        requireOpen();
        FileNameEncoding.requireUtf8(directory);
        ScanSession session = launcher.start(directory, options, true);
        try {
            return session.await();
        } catch (InterruptedException e) {
            session.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while scanning " + directory + "; the scan was cancelled");
        }
    }

    /** The message a completed {@link #scanDirectory directory scan} is recorded with in the scans table. */
    public static final String DIRECTORY_SCAN = "directory scan";

    /**
     * Keeps the index of {@code root} current until the returned handle is closed: scans {@code root} (unless a
     * completed scan of it is recent enough, see {@link WatchOptions#skipInitialScanWithin}), then follows the
     * filesystem's change notifications with {@link #scanDirectory directory scans} of the directories they name,
     * and falls back to scanning a subtree whenever notifications were lost or cannot be had. See the README,
     * "Watching a tree".
     *
     * @param root    the directory to watch
     * @param options how to watch
     * @return the running watch; close it to stop
     * @throws ScanFailedException if the root is missing or the initial scan fails; nothing is watched then
     */
    public IndexWatch watch(Path root, WatchOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        requireOpen();
        return io.fsindex.core.watch.TreeWatcher.start(this, root, options, db.read(db.connections()::databaseFiles));
    }

    /**
     * How many write transactions this index has run again, since it was opened, because the database was busy,
     * deadlocked or refused a bulk load; each retry is also logged at DEBUG by {@code io.fsindex.core.internal.Database}. A
     * count that keeps rising means scans are waiting on each other or on other writers.
     *
     * @return the retries so far
     */
    public long transactionRetries() {
        return db.retries();
    }

    /**
     * Returns the entry recorded for {@code path}, if any. The path is made absolute and looked up as given (which
     * finds entries recorded below a followed link), then with its parent resolved to its real path, so a link that
     * was recorded is found as the link, and last resolved whole as a scan resolves its root, so a root scanned
     * through a link is found through it. Resolving uses the longest prefix that still exists on disk, so an entry
     * recorded but since deleted is found too.
     */
    public Optional<FileEntry> lookup(Path path) {
        requireOpen();
        return reads.lookup(path);
    }

    @Override
    public Optional<FileEntry> lookup(long id) {
        requireOpen();
        return reads.lookup(id);
    }

    @Override
    public List<FileEntry> children(Path path, String afterName, int limit) {
        IndexReads.requirePositive(limit);
        requireOpen();
        return reads.children(path, afterName, limit);
    }

    @Override
    public FindPage find(FileQuery query) {
        Objects.requireNonNull(query, "query");
        requireOpen();
        return reads.find(query);
    }

    @Override
    public Optional<DirectorySize> directorySize(Path path) {
        requireOpen();
        return reads.directorySize(path);
    }

    @Override
    public List<DirectorySize> largestSubdirectories(Path path, int limit) {
        IndexReads.requirePositive(limit);
        requireOpen();
        return reads.largestSubdirectories(path, limit);
    }

    @Override
    public List<DuplicateGroup> duplicates(Path under, int limit) {
        IndexReads.requirePositive(limit);
        requireOpen();
        return reads.duplicates(under, limit);
    }


    /**
     * Returns the recorded children of directory {@code path} (found as {@link #lookup} finds it), sorted by name;
     * empty if it is not recorded.
     */
    public List<FileEntry> children(Path path) {
        requireOpen();
        return reads.children(path);
    }

    /**
     * Returns up to {@code limit} changes committed after {@code cursor}, in order, with the cursor to ask with next.
     * Start with {@code 0} for everything the feed still holds, or with {@link #changeFeedEnd()} for changes from now
     * on. Changes from every scan, in any process, of this database arrive here; a change is visible only once
     * committed, and none commits after a larger-numbered one is visible, so a consumer that always asks with the
     * cursor it was given sees every change exactly once. If the bounded feed has already dropped changes after
     * {@code cursor}, the answer says {@link ChangeBatch#resyncNeeded() resyncNeeded} instead.
     *
     * @throws IllegalArgumentException if {@code cursor} is negative or beyond the feed's end (a cursor from another
     *                                  database), or {@code limit} is not positive
     */
    @Override
    public ChangeBatch changesSince(long cursor, int limit) {
        requireOpen();
        return reads.changesSince(cursor, limit);
    }

    /** The number of the last change committed so far: a cursor for {@link #changesSince} that skips the past. */
    @Override
    public long changeFeedEnd() {
        requireOpen();
        return reads.changeFeedEnd();
    }

    /**
     * How many changes the change feed holds now: the numbers after the last pruned one up to {@link #changeFeedEnd},
     * at most the {@link Builder#changeFeedCapacity capacity} once a scan has pruned it. For metrics; a consumer
     * whose cursor is further behind than this is told to resync.
     *
     * @return the feed's length
     */
    public long changeFeedLength() {
        requireOpen();
        return reads.changeFeedLength();
    }

    /** Summarises the index: schema version, row counts and the most recent scans. */
    public IndexInfo info(int recentScans) {
        requireOpen();
        return reads.info(recentScans, launcher.runningScanIds());
    }

    /**
     * Collects unreferenced content: deletes each {@code contents} row that nothing has referenced for at least
     * {@code grace}, and marks the unreferenced rest so a later run can delete them. "Referenced" is decided by the
     * database's foreign keys ({@code ON DELETE RESTRICT}), so references from an application's own tables count
     * too. Safe to run while scans run; see the README, "Content and garbage collection".
     *
     * @param grace     how long a content row must have been found unreferenced, by this run and earlier ones, before
     *                  it is deleted; a row first found unreferenced now is only marked
     * @param onDeleted called with each deleted row's hash after the deletion has committed (e.g. to delete the
     *                  thumbnails or blobs an application keeps for it); never for a row that was not deleted. If it
     *                  throws, the rest of that batch is still called back and then the exception ends the run
     * @return what the run did
     */
    public GarbageCollection collectGarbage(Duration grace, Consumer<String> onDeleted) {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(onDeleted, "onDeleted");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative: " + grace);
        }
        requireOpen();
        try {
            return new GarbageCollector(db, contentStatements.get()).collect(grace, onDeleted);
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect().name() + " error collecting garbage: " + e.getMessage(), e);
        }
    }

    /** The name of the database engine this index uses, e.g. "SQLite". */
    public String databaseName() {
        return db.dialect().name();
    }

    /**
     * Cancels running scans, waits briefly for them to stop, and releases the database (a data source fsindex opened
     * itself is closed; one the application supplied is left open).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        launcher.close();
        lifecycle.close();
        if (ownedDataSource != null) {
            try {
                ownedDataSource.close();
            } catch (Exception e) {
                throw new FsIndexException("could not close the data source: " + e.getMessage(), e);
            }
        }
    }

    /** Throws if this index is closed. */
    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("this FsIndex is closed");
        }
    }

    /**
     * Configures an {@link FsIndex}; {@link #build()} opens it and seals the configuration. A setting given a value
     * it cannot take fails at once with an {@link FsIndexConfigurationException} naming it.
     */
    public static final class Builder extends IndexSettings<Builder> {
        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        /**
         * Opens the index: picks the dialect, opens the database and creates, upgrades or checks the schema.
         *
         * @return the open index
         * @throws FsIndexConfigurationException  if neither a JDBC URL nor a data source is set, or both are, or
         *                                        the table prefix is too long for the database's names
         * @throws io.fsindex.api.SchemaException if the schema is from a newer fsindex or does not match
         * @throws FsIndexException              if no dialect serves the database or it cannot be opened
         */
        public FsIndex build() {
            return IndexOpener.open(config(), false);
        }

        /**
         * Opens a read-only handle on an index that already exists: the schema is only checked, never created or
         * upgraded (whatever {@link #schemaMode} says), the handle has no method that writes, and every connection
         * it uses is read-only at the database level (SQLite {@code query_only}, PostgreSQL and MySQL/MariaDB a
         * read-only session), so even a statement run through one of them cannot write. With
         * {@link #dataSource(DataSource) an application's data source}, give it one of its own (ideally with a
         * database user that may only read): the connections it borrowed go back to that data source read-only.
         * A database that is not there is an error, never created; an SQLite file is read without write access to
         * it or its directory if need be (as immutable when no scan has it open, see {@code SqliteDialect}).
         *
         * @return the read-only handle
         * @throws io.fsindex.api.SchemaException if the tables are missing, older or newer than this fsindex, or do not
         *                                        match
         * @throws FsIndexConfigurationException  if neither a JDBC URL nor a data source is set, or both are, or
         *                                        the table prefix is too long for the database's names
         * @throws FsIndexException              if no dialect serves the database or it cannot be opened
         */
        public IndexReader buildReader() {
            FsIndex index = IndexOpener.open(config(), true);
            return new ReadOnlyIndex(index.reads, index);
        }
    }
}
