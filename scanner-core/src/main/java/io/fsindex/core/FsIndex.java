package io.fsindex.core;

import io.fsindex.core.content.ContentStore;
import io.fsindex.core.content.GarbageCollector;
import io.fsindex.core.feed.FeedReader;
import io.fsindex.core.internal.Settings;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.core.scan.RealPaths;
import io.fsindex.core.scan.Scan;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.schema.TablePrefixLimit;
import io.fsindex.core.write.Row;
import io.fsindex.core.write.SqlFileSink;
import io.fsindex.core.content.ContentStatements;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Durations;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.query.Queries;
import io.fsindex.core.scan.DefaultScanSession;
import io.fsindex.core.scan.FileNameEncoding;
import io.fsindex.core.scan.ScanLifecycle;
import io.fsindex.api.Change;
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
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.api.Walker;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.PoolOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
        IndexInternals.install(index -> index.new Internals());
    }

    final Database db;
    final Statements statements;
    private final ContentStatements contentStatements;
    private final Queries queries;
    private final FsTables tables;
    private final Walker walker;
    private final FeedSettings feedSettings;
    private final ScanLifecycle lifecycle;
    private final AutoCloseable ownedDataSource;
    private final ExecutorService executor;
    private final Set<DefaultScanSession> running = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** How many entries of a huge directory a scan lists and applies at a time; only tests change it. */
    private volatile int partEntries = Scan.PART_ENTRIES;

    private FsIndex(Builder b, DataSource dataSource, Dialect dialect, AutoCloseable owned, boolean readOnly) {
        this.tables = new FsTables(b.tablePrefix);
        this.db = new Database(dataSource, dialect, b.retryTimeout, readOnly);
        this.statements = new Statements(dialect, tables);
        this.contentStatements = new ContentStatements(dialect, tables);
        this.queries = new Queries(dialect, tables, statements);
        this.walker = b.walker;
        this.feedSettings = new FeedSettings(b.orphanRetention, b.changeFeedCapacity);
        this.lifecycle = new ScanLifecycle(db, dialect, tables, b.scanLease);
        this.ownedDataSource = owned;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fsindex-scan-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts configuring an index. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds an index from properties, one per {@link Builder} setting: {@code fsindex.url} (required),
     * {@code fsindex.user}, {@code fsindex.password}, {@code fsindex.tablePrefix}, {@code fsindex.schemaMode}
     * ({@code migrate} or {@code validate}), {@code fsindex.retryTimeout}, {@code fsindex.orphanRetention} (durations
     * such as {@code 90s}, {@code 5m}, {@code 1h30m}, {@code 7d} or ISO-8601 {@code PT1H}; see {@link Durations}),
     * {@code fsindex.changeFeedCapacity}, {@code fsindex.scanLease} and {@code fsindex.maxPoolSize}.
     * {@code fsindex.retryTimeoutSeconds}, the older spelling of {@code fsindex.retryTimeout}, still takes a number
     * of seconds. Keys outside {@code fsindex.*} are ignored; an unknown {@code fsindex.*} key is an error, so a typo
     * cannot go unnoticed.
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

    /** Scans {@code root} and waits for it, with default options. */
    public ScanResult scan(Path root) {
        return scan(root, ScanOptions.defaults());
    }

    /**
     * Scans {@code root} and waits for the scan to end.
     *
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
     * started after this call is newer.
     */
    public ScanSession startScan(Path root, ScanOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        ensureOpen();
        FileNameEncoding.requireUtf8(root);
        Connection c = null;
        try {
            c = db.connectLive();           // a scan holds its connection throughout: not one a server dropped
            long id = insertScanRow(c, root.toAbsolutePath().normalize().toString());
            Scan scan = new Scan(id, root, options.walker() != null ? options.walker() : walker, options,
                    partEntries);
            DefaultScanSession session = new DefaultScanSession(scan, root);
            running.add(session);
            lifecycle.startBeating(id);
            Connection connection = c;
            LOG.info("scan {} of {} started", id, root);
            executor.execute(() -> runScan(scan, session, connection));
            return session;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            throw new ScanFailedException("cannot start a scan of " + root + ": " + (e instanceof SQLException s
                    ? db.describe(s) : db.dialect.name() + " error: " + e.getMessage()), e);
        }
    }

    private void runScan(Scan scan, DefaultScanSession session, Connection c) {
        try (c) {
            scan.hashContent(new ContentStore(db, contentStatements, c));
            ScanResult result = null;
            Throwable failure;
            String state;
            String message;
            try {
                SqlFileSink sink = new SqlFileSink(db, statements, c, scan.scanId(), scan.walker(), scan.listener(),
                        feedSettings, scan.options().contentHashing() != io.fsindex.api.ContentHashing.OFF,
                        scan.partEntries());
                result = scan.run(sink);
                failure = null;
                state = "COMPLETED";
                message = null;
            } catch (CancellationException e) {
                failure = e;
                state = "CANCELLED";
                message = e.getMessage();
            } catch (RuntimeException | Error e) {
                failure = e;
                state = "FAILED";
                message = String.valueOf(e.getMessage());
            } catch (SQLException e) {
                failure = new ScanFailedException(db.dialect.name() + " error starting scan " + scan.scanId() + ": "
                        + e.getMessage(), e);
                state = "FAILED";
                message = String.valueOf(e.getMessage());
            }
            ScanResult r = result;
            try {
                lifecycle.finish(c, scan.scanId(), state, r == null ? 0 : r.added(), r == null ? 0 : r.modified(),
                        r == null ? 0 : r.moved(), r == null ? 0 : r.deleted(),
                        r == null ? scan.errorCount() : r.errors().size(), message);
            } catch (SQLException e) {
                // The outcome is not lost: the caller hears of it. The row stays RUNNING and, its heartbeat
                // stopped, is taken for ABANDONED once its lease has run out.
                ScanFailedException unrecorded = new ScanFailedException("scan " + scan.scanId() + " of "
                        + session.root() + " ended " + state + (r == null ? "" : " and its changes are committed")
                        + ", but recording that in the " + db.dialect.name() + " database failed, also on a fresh"
                        + " connection: " + e.getMessage(), e);
                if (failure != null) {
                    failure.addSuppressed(unrecorded);
                } else {
                    failure = unrecorded;
                }
            }
            logOutcome(scan.scanId(), session.root(), state, r, failure);
            if (failure == null) {
                session.done.complete(r);
            } else {
                session.done.completeExceptionally(failure);
            }
        } catch (SQLException | RuntimeException e) {
            session.done.completeExceptionally(e);
        } finally {
            lifecycle.stopBeating(scan.scanId());
            running.remove(session);
        }
    }

    private static void logOutcome(long scanId, Path root, String state, ScanResult r, Throwable failure) {
        if (failure == null) {
            LOG.debug("scan {} swept {} entries no longer on disk ({} unchanged, {} left to newer scans)", scanId,
                    r.deleted(), r.unchanged(), r.skipped());
            LOG.info("scan {} of {} completed in {} s: {} added, {} modified, {} moved, {} deleted, {} errors", scanId,
                    root, r.duration().toMillis() / 1000.0, r.added(), r.modified(), r.moved(), r.deleted(),
                    r.errors().size());
        } else {
            // INFO, not WARN: the failure itself reaches the caller, through ScanSession.await or scan()
            LOG.info("scan {} of {} ended {}: {}", scanId, root, state, failure.toString());
        }
    }

    /**
     * How many write transactions this index has run again, since it was opened, because the database was busy,
     * deadlocked or refused a bulk load; each retry is also logged at DEBUG by {@code io.fsindex.core.Database}. A
     * count that keeps rising means scans are waiting on each other or on other writers.
     *
     * @return the retries so far
     */
    public long transactionRetries() {
        return db.retries.sum();
    }

    /**
     * Returns the entry recorded for {@code path}, if any. The path is made absolute and looked up as given (which
     * finds entries recorded below a followed link), then with its parent resolved to its real path, so a link that
     * was recorded is found as the link, and last resolved whole as a scan resolves its root, so a root scanned
     * through a link is found through it. Resolving uses the longest prefix that still exists on disk, so an entry
     * recorded but since deleted is found too.
     */
    public Optional<FileEntry> lookup(Path path) {
        ensureOpen();
        return db.read(c -> {
            Optional<Located> found = locate(c, path);
            return found.isEmpty() ? Optional.<FileEntry>empty()
                    : queries.byId(c, found.get().row().id(), found.get().path());
        });
    }

    @Override
    public Optional<FileEntry> lookup(long id) {
        ensureOpen();
        return db.read(c -> queries.byId(c, id));
    }

    @Override
    public List<FileEntry> children(Path path, String afterName, int limit) {
        requirePositive(limit);
        ensureOpen();
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? List.<FileEntry>of()
                    : queries.children(c, dir.get().row().id(), dir.get().path(), afterName, limit);
        });
    }

    @Override
    public FindPage find(FileQuery query) {
        Objects.requireNonNull(query, "query");
        ensureOpen();
        return db.read(c -> {
            long under = 0;
            if (query.under() != null) {
                Optional<Located> dir = locate(c, query.under());
                if (dir.isEmpty() || !dir.get().row().isDirectory()) {
                    return new FindPage(List.of(), query.after(), false);
                }
                under = dir.get().row().id();
            }
            return queries.find(c, query, under);
        });
    }

    @Override
    public Optional<DirectorySize> directorySize(Path path) {
        ensureOpen();
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? Optional.<DirectorySize>empty()
                    : queries.directorySize(c, dir.get().row().id(), dir.get().path());
        });
    }

    @Override
    public List<DirectorySize> largestSubdirectories(Path path, int limit) {
        requirePositive(limit);
        ensureOpen();
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            return dir.isEmpty() ? List.<DirectorySize>of()
                    : queries.largestSubdirectories(c, dir.get().row().id(), limit);
        });
    }

    @Override
    public List<DuplicateGroup> duplicates(Path under, int limit) {
        requirePositive(limit);
        ensureOpen();
        return db.read(c -> {
            long top = 0;
            if (under != null) {
                Optional<Located> dir = locate(c, under);
                if (dir.isEmpty() || !dir.get().row().isDirectory()) {
                    return List.<DuplicateGroup>of();
                }
                top = dir.get().row().id();
            }
            return queries.duplicates(c, top, limit);
        });
    }

    private static void requirePositive(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive; got " + limit);
        }
    }

    private record Located(Path path, Row row) {
    }

    private Optional<Located> locate(Connection c, Path path) throws SQLException {
        Path abs = path.toAbsolutePath().normalize();
        Optional<Row> literal = find(c, abs);
        if (literal.isPresent()) {
            return Optional.of(new Located(abs, literal.get()));
        }
        Path linkItself = RealPaths.resolveParent(abs);
        if (!linkItself.equals(abs)) {
            Optional<Row> row = find(c, linkItself);
            if (row.isPresent()) {
                return Optional.of(new Located(linkItself, row.get()));
            }
        }
        Path real = RealPaths.resolve(abs);
        if (real.equals(abs) || real.equals(linkItself)) {
            return Optional.empty();
        }
        return find(c, real).map(row -> new Located(real, row));
    }

    /**
     * Returns the recorded children of directory {@code path} (found as {@link #lookup} finds it), sorted by name;
     * empty if it is not recorded.
     */
    public List<FileEntry> children(Path path) {
        ensureOpen();
        return db.read(c -> {
            Optional<Located> dir = locate(c, path);
            List<FileEntry> out = new ArrayList<>();
            if (dir.isEmpty()) {
                return out;
            }
            long id = dir.get().row().id();
            for (List<FileEntry> page = queries.children(c, id, dir.get().path(), null, Statements.PAGE_ROWS);
                 !page.isEmpty(); page = page.size() < Statements.PAGE_ROWS ? List.of()
                         : queries.children(c, id, dir.get().path(), page.get(page.size() - 1).name(),
                         Statements.PAGE_ROWS)) {
                out.addAll(page);
            }
            out.sort(Comparator.comparing(FileEntry::name));
            return out;
        });
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
        ensureOpen();
        if (cursor < 0 || limit <= 0) {
            throw new IllegalArgumentException("cursor must be >= 0 and limit > 0; got " + cursor + ", " + limit);
        }
        return db.read(c -> {
            long[] head = feedHead(c);
            if (cursor > head[0]) {
                throw new IllegalArgumentException("cursor " + cursor + " is beyond the change feed's end ("
                        + head[0] + "): it does not come from this database");
            }
            if (cursor < head[1]) {
                return new ChangeBatch(List.of(), head[0], true);
            }
            List<Change> changes = new ArrayList<>();
            try (Sql.Bound q = statements.readChanges.prepare(c)) {
                FeedReader.read(q, cursor, Math.min(head[0], cursor + limit), changes::add);
            }
            if (!changes.isEmpty() && changes.get(0).seq() != cursor + 1) {
                return new ChangeBatch(List.of(), head[0], true);     // pruned between the two reads
            }
            return new ChangeBatch(changes, changes.isEmpty() ? cursor : changes.get(changes.size() - 1).seq(), false);
        });
    }

    /** The number of the last change committed so far: a cursor for {@link #changesSince} that skips the past. */
    @Override
    public long changeFeedEnd() {
        ensureOpen();
        return db.read(c -> feedHead(c)[0]);
    }

    /**
     * How many changes the change feed holds now: the numbers after the last pruned one up to {@link #changeFeedEnd},
     * at most the {@link Builder#changeFeedCapacity capacity} once a scan has pruned it. For metrics; a consumer
     * whose cursor is further behind than this is told to resync.
     *
     * @return the feed's length
     */
    public long changeFeedLength() {
        ensureOpen();
        return db.read(c -> {
            long[] head = feedHead(c);
            return head[0] - head[1];
        });
    }

    private long[] feedHead(Connection c) throws SQLException {
        try (Sql.Bound q = statements.readFeed.prepare(c); ResultSet rs = q.statement.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the change feed's head row is missing from " + tables.feedName());
            }
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /** Summarises the index: schema version, row counts and the most recent scans. */
    public IndexInfo info(int recentScans) {
        ensureOpen();
        return db.read(c -> {
            String product = c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getDatabaseProductVersion();
            int version = new SchemaManager(db, tables).version(c);
            long files;
            long dirs;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(CASE WHEN kind = 'DIRECTORY' THEN 1 ELSE 0 END)"
                         + " FROM " + tables.filesName() + " WHERE gone_at IS NULL")) {
                rs.next();
                files = rs.getLong(1);
                dirs = rs.getLong(2);
            }
            Set<Long> runningHere = new java.util.HashSet<>();
            running.forEach(session -> runningHere.add(session.scanId()));
            List<ScanRecord> scans = lifecycle.recent(c, recentScans, runningHere);
            return new IndexInfo(product, version, files, dirs, scans);
        });
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
        ensureOpen();
        try {
            return new GarbageCollector(db, contentStatements).collect(grace, onDeleted);
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect.name() + " error collecting garbage: " + e.getMessage(), e);
        }
    }

    /** The name of the database engine this index uses, e.g. "SQLite". */
    public String databaseName() {
        return db.dialect.name();
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
        running.forEach(DefaultScanSession::cancel);
        executor.shutdown();
        try {
            executor.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lifecycle.close();
        if (ownedDataSource != null) {
            try {
                ownedDataSource.close();
            } catch (Exception e) {
                throw new FsIndexException("could not close the data source: " + e.getMessage(), e);
            }
        }
    }

    private Optional<Row> find(Connection c, Path p) throws SQLException {
        Row row = null;
        long parent = 0;
        List<String> names = new ArrayList<>();
        names.add(p.getRoot().toString());
        for (Path name : p) {
            names.add(name.toString());
        }
        for (String name : names) {
            try (Sql.Bound q = (parent == 0 ? statements.selectTopLevel : statements.selectChild).prepare(c)) {
                q.set("name", name);
                if (parent != 0) {
                    q.set("parent", parent);
                }
                try (ResultSet rs = q.statement.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    row = Row.read(rs);
                    if (row.orphan()) {
                        return Optional.empty();    // found gone, kept only to recognise the file if it moved
                    }
                }
            }
            parent = row.id();
        }
        return Optional.ofNullable(row);
    }

    long insertScanRow(Connection c, String root) throws SQLException {
        return lifecycle.start(c, root);
    }

    /** This index's plumbing, as {@link IndexInternals} hands it out. */
    private final class Internals implements IndexInternals.Parts {
        @Override
        public Database db() {
            return db;
        }

        @Override
        public Statements statements() {
            return statements;
        }

        @Override
        public long insertScanRow(Connection c, String root) throws SQLException {
            return FsIndex.this.insertScanRow(c, root);
        }

        @Override
        public void listingPartEntries(int entries) {
            partEntries = entries;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this FsIndex is closed");
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the original error is what the caller needs
            }
        }
    }

    /**
     * Configures an {@link FsIndex}; {@link #build()} opens it and seals the configuration. A setting given a value
     * it cannot take fails at once with an {@link FsIndexConfigurationException} naming it.
     */
    public static final class Builder {
        private String jdbcUrl;
        private String user;
        private String password;
        private DataSource dataSource;
        private Dialect dialect;
        private String tablePrefix = FsTables.DEFAULT_PREFIX;
        private SchemaMode schemaMode = SchemaMode.MIGRATE;
        private Walker walker = new NioWalker();
        private Duration retryTimeout = Duration.ofMinutes(5);
        private Duration orphanRetention = FeedSettings.DEFAULTS.orphanRetention();
        private long changeFeedCapacity = FeedSettings.DEFAULTS.feedCapacity();
        private Duration scanLease = Duration.ofMinutes(1);
        private int maxPoolSize;
        private Object metricRegistry;

        private Builder() {
        }

        /**
         * How long the row of an entry found gone is kept, invisible to lookups, so that a later scan that finds the
         * same file (same device and inode) elsewhere moves the row and keeps its id; 7 days by default. Zero deletes
         * gone entries' rows at the end of the scan that found them gone (a move is then still recognised within
         * one scan).
         */
        public Builder orphanRetention(Duration retention) {
            if (retention == null || retention.isNegative()) {
                throw new FsIndexConfigurationException("orphanRetention must be zero or positive; got " + retention);
            }
            this.orphanRetention = retention;
            return this;
        }

        /**
         * How many of the newest changes the change feed keeps (1,000,000 by default); older ones are pruned at the
         * end of each scan, and a consumer whose cursor falls behind them is told to resync.
         */
        public Builder changeFeedCapacity(long capacity) {
            if (capacity < 1) {
                throw new FsIndexConfigurationException("changeFeedCapacity must be at least 1; got " + capacity);
            }
            this.changeFeedCapacity = capacity;
            return this;
        }

        /**
         * How long a running scan may show no sign of life before other scans and readers take its process for gone
         * (1 minute by default). A running scan refreshes its heartbeat every quarter of this, from a connection of
         * its own: one short write per index with running scans. A scan whose heartbeat is older is shown
         * {@code ABANDONED} and recorded so by the next scan's start (see {@link ScanRecord}). Machines sharing a
         * database compare their clocks through it: raise this well above their clock skew and above the longest
         * time the database may block a write (a SQLite file locked by another process, say).
         */
        public Builder scanLease(Duration lease) {
            if (lease == null || lease.toMillis() < 4) {
                throw new IllegalArgumentException("the scan lease must be at least 4 ms; got " + lease);
            }
            this.scanLease = lease;
            return this;
        }

        /**
         * The most connections the pool fsindex opens for a {@link #jdbcUrl URL} may hold (by default 10 on
         * PostgreSQL and 32 on MySQL and MariaDB); each running scan keeps one for its whole run, and lookups and
         * heartbeats borrow one briefly. SQLite opens no pool and ignores it; with an application's
         * {@link #dataSource data source} it is an error, since that pool is the application's to size.
         */
        public Builder maxPoolSize(int size) {
            if (size < 1) {
                throw new FsIndexConfigurationException("maxPoolSize must be at least 1; got " + size);
            }
            this.maxPoolSize = size;
            return this;
        }

        /**
         * Where the connection pool fsindex opens for a {@link #jdbcUrl URL} reports its metrics: a Micrometer
         * {@code MeterRegistry} or a Dropwizard {@code MetricRegistry}, handed to HikariCP as it is (its meters are
         * named {@code hikaricp.connections*}, tagged {@code pool=fsindex-<engine>}). SQLite opens no pool and ignores
         * it; with an application's {@link #dataSource data source} it is an error, since that pool is the
         * application's to observe.
         */
        public Builder metricRegistry(Object registry) {
            this.metricRegistry = required(registry, "metricRegistry");
            return this;
        }

        /** The database's JDBC URL, e.g. {@code jdbc:sqlite:index.db}; fsindex opens (and later closes) it. */
        public Builder jdbcUrl(String jdbcUrl) {
            this.jdbcUrl = jdbcUrl;
            return this;
        }

        /** The database user, for a URL. */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /** The database password, for a URL. */
        public Builder password(String password) {
            this.password = password;
            return this;
        }

        /** Use the application's own data source as it is (fsindex never closes it) instead of a URL. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /** Use this dialect instead of finding one from the URL. */
        public Builder dialect(Dialect dialect) {
            this.dialect = dialect;
            return this;
        }

        /**
         * The prefix of fsindex's table names (default {@code fsindex_}): letters, digits and underscores. Where the
         * engine limits names (PostgreSQL to 63 characters, MySQL and MariaDB to 64), {@link #build} refuses a prefix
         * that would make one of fsindex's names longer, and says how long a prefix the engine takes.
         */
        public Builder tablePrefix(String tablePrefix) {
            if (tablePrefix == null) {
                throw new FsIndexConfigurationException("tablePrefix must not be null");
            }
            try {
                new FsTables(tablePrefix); // fail here, with the builder in hand, not at build()
            } catch (IllegalArgumentException e) {
                throw new FsIndexConfigurationException(e.getMessage(), e);
            }
            this.tablePrefix = tablePrefix;
            return this;
        }

        /** Whether to create and upgrade the schema, or only check it (default {@link SchemaMode#MIGRATE}). */
        public Builder schemaMode(SchemaMode schemaMode) {
            this.schemaMode = required(schemaMode, "schemaMode");
            return this;
        }

        /** The walker scans use unless their options name another (default {@link NioWalker}). */
        public Builder walker(Walker walker) {
            this.walker = required(walker, "walker");
            return this;
        }

        /** How long a transaction is retried while the database stays busy or deadlocked (default 5 minutes). */
        public Builder retryTimeout(Duration retryTimeout) {
            if (required(retryTimeout, "retryTimeout").isNegative()) {
                throw new FsIndexConfigurationException("retryTimeout must be zero or positive; got " + retryTimeout);
            }
            this.retryTimeout = retryTimeout;
            return this;
        }

        private static <T> T required(T value, String setting) {
            if (value == null) {
                throw new FsIndexConfigurationException(setting + " must not be null");
            }
            return value;
        }

        /**
         * Applies {@code FSINDEX_*} variables from {@code env}; see {@link FsIndex#fromEnvironment}.
         *
         * @param env variables, e.g. {@code System.getenv()}
         * @return this builder
         * @throws FsIndexConfigurationException if a value is not valid; the message names the variable
         */
        public Builder environment(Map<String, String> env) {
            Settings.applyEnvironment(this, env);
            return this;
        }

        /**
         * Applies {@code fsindex.*} properties; see {@link FsIndex#fromProperties}.
         *
         * @param p properties; keys outside {@code fsindex.*} are ignored
         * @return this builder
         * @throws FsIndexConfigurationException if an {@code fsindex.*} key is unknown or its value is not valid; the
         *                                       message names the key
         */
        public Builder properties(Properties p) {
            Settings.applyProperties(this, p);
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
            return open(false);
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
            return new ReadOnlyIndex(open(true));
        }

        private FsIndex open(boolean readOnly) {
            if (dataSource == null && jdbcUrl == null) {
                throw new FsIndexConfigurationException("no database given: set the environment variable FSINDEX_URL,"
                        + " the property fsindex.url or the builder's jdbcUrl(...) to a JDBC URL such as"
                        + " jdbc:sqlite:index.db, or give the builder a dataSource(...)");
            }
            if (dataSource != null && jdbcUrl != null) {
                throw new FsIndexConfigurationException("both a JDBC URL (" + Dialects.redact(jdbcUrl) + ") and a"
                        + " data source are set; set only one");
            }
            if (dataSource != null && (maxPoolSize != 0 || metricRegistry != null)) {
                throw new FsIndexConfigurationException((maxPoolSize != 0 ? "maxPoolSize" : "metricRegistry")
                        + " applies to the pool fsindex opens for a JDBC URL, but a data source is set: size and"
                        + " observe that pool where the application configures it");
            }
            Dialect d = dialect;
            DataSource ds = dataSource;
            AutoCloseable owned = null;
            try {
                if (d == null) {
                    d = Dialects.forUrl(jdbcUrl != null ? jdbcUrl : urlOf(dataSource));
                }
                TablePrefixLimit.check(d, tablePrefix);
                if (ds == null) {
                    PoolOptions pool = new PoolOptions(maxPoolSize, metricRegistry);
                    ds = readOnly ? d.openReadOnlyDataSource(jdbcUrl, user, password, pool)
                            : d.openDataSource(jdbcUrl, user, password, pool);
                    owned = ds instanceof AutoCloseable a ? a : null;
                }
                FsIndex index = new FsIndex(this, ds, d, owned, readOnly);
                SchemaManager schema = new SchemaManager(index.db, index.tables);
                if (schemaMode == SchemaMode.MIGRATE && !readOnly) {
                    schema.migrate();
                } else {
                    schema.validate();
                }
                return index;
            } catch (SQLException e) {
                closeOwned(owned);
                throw new FsIndexException("cannot open the " + (d == null ? "" : d.name() + " ") + "database"
                        + (jdbcUrl == null ? "" : " at " + Dialects.redact(jdbcUrl)) + ": " + e.getMessage(), e);
            } catch (FsIndexException e) {
                closeOwned(owned);
                throw e;
            } catch (RuntimeException e) {
                // e.g. the connection pool's own exceptions: still an FsIndexException, with the database named
                closeOwned(owned);
                throw new FsIndexException("cannot open the " + (d == null ? "" : d.name() + " ") + "database"
                        + (jdbcUrl == null ? "" : " at " + Dialects.redact(jdbcUrl)) + ": " + e.getMessage(), e);
            }
        }

        private static String urlOf(DataSource ds) {
            try (Connection c = ds.getConnection()) {
                return c.getMetaData().getURL();
            } catch (SQLException e) {
                throw new FsIndexException("cannot connect through the given data source: " + e.getMessage(), e);
            }
        }

        private static void closeOwned(AutoCloseable owned) {
            if (owned != null) {
                try {
                    owned.close();
                } catch (Exception ignored) {
                    // the open failure is what the caller needs to see
                }
            }
        }

    }
}
