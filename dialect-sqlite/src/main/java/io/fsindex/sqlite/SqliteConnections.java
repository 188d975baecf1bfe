package io.fsindex.sqlite;

import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.PoolOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * SQLite's connections: a database file (never an in-memory one) in WAL mode with foreign keys on and a short busy
 * timeout on every connection, and write transactions that take the write lock up front ({@code BEGIN IMMEDIATE}).
 */
final class SqliteConnections implements Connections {
    /**
     * How long SQLite itself waits for the write lock in {@code BEGIN IMMEDIATE} before fsindex's retry loop takes
     * over. Kept short so that {@code FsIndex.Builder.retryTimeout} bounds the whole wait: the loop retries until that
     * timeout, and a failed BEGIN IMMEDIATE has done no work, so retrying it costs nothing.
     */
    static final int BUSY_TIMEOUT_MILLIS = 1_000;

    /** How long opening a database keeps retrying while other openers hold the locks it needs. */
    static final long OPEN_BUSY_MILLIS = 60_000;

    /**
     * The page cache of each connection fsindex opens, in KiB (SQLite's own default is 2,000). A huge directory's new
     * rows land all over the files table's indexes (its names, its file identities and the tree index follow no common
     * order), so with the default cache nearly every insert reads an index page back from the file and spills another
     * to the WAL; a tree's rows go in near the end of each index and hardly notice. SQLite takes the pages only as it
     * uses them, and frees them when the connection closes or, kept for reuse after a write, when it is put aside
     * ({@link IdleConnections}).
     */
    static final int PAGE_CACHE_KIB = 65_536;

    private final SqliteErrors errors;

    SqliteConnections(SqliteErrors errors) {
        this.errors = errors;
    }

    /**
     * Opens the database file, creating it if it does not exist yet. The data source returned never creates it
     * again: a file deleted under an open index (or a volume unmounted beneath it) then fails with a message naming
     * the file, instead of being silently replaced by an empty database.
     */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        if (isInMemory(jdbcUrl)) {
            throw new FsIndexException(inMemoryMessage(jdbcUrl));
        }
        SQLiteDataSource creating = new SQLiteDataSource(config(true));
        creating.setUrl(jdbcUrl);
        createAndSwitchToWal(creating, jdbcUrl);
        SQLiteDataSource existing = new SQLiteDataSource(config(false));
        existing.setUrl(jdbcUrl);
        return new ExistingFileDataSource(existing, fileOf(jdbcUrl));
    }

    /**
     * Opens the database file read-only, without write access to its directory if need be (see
     * {@code ReadOnlyFileDataSource}); a file that does not exist is an error, never created.
     */
    @Override
    public DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password,
                                             PoolOptions pool) {
        if (isInMemory(jdbcUrl)) {
            throw new FsIndexException(inMemoryMessage(jdbcUrl));
        }
        Path file = Path.of(fileOf(jdbcUrl));
        if (!Files.exists(file)) {
            throw new FsIndexException("no index at " + file.toAbsolutePath() + ": the SQLite database file does not"
                    + " exist, and reading never creates it; check the path, or scan into it first");
        }
        return new ReadOnlyFileDataSource(jdbcUrl, file);
    }

    /**
     * Opens one connection, which creates the file and switches it to WAL. Switching needs an exclusive lock, and
     * SQLite answers SQLITE_BUSY at once (without its busy handler) to a connection that would have to wait for it
     * while holding a shared lock, as happens when several processes or threads open a fresh database together; so
     * busy answers are retried here for up to {@link #OPEN_BUSY_MILLIS}.
     */
    private void createAndSwitchToWal(SQLiteDataSource creating, String jdbcUrl) {
        long deadline = System.nanoTime() + OPEN_BUSY_MILLIS * 1_000_000L;
        for (int attempt = 1; ; attempt++) {
            try (Connection c = creating.getConnection()) {
                c.getMetaData();
                return;
            } catch (SQLException e) {
                if (!errors.isRetryable(e) || System.nanoTime() > deadline) {
                    throw new FsIndexException("cannot open or create the SQLite database file " + fileOf(jdbcUrl)
                            + " (does its directory exist and may it be written?): " + e.getMessage(), e);
                }
            }
            try {
                Thread.sleep(Math.min(200, 5L * attempt));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FsIndexException("interrupted while opening the SQLite database file " + fileOf(jdbcUrl), e);
            }
        }
    }

    private static SQLiteConfig config(boolean mayCreate) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // NORMAL in WAL mode: a commit survives an application crash; only an OS crash or power loss can undo
        // the last few commits, never corrupt the file.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setCacheSize(-PAGE_CACHE_KIB);
        if (!mayCreate) {
            config.resetOpenMode(SQLiteOpenMode.CREATE);
        }
        return config;
    }

    /**
     * Their connections come with foreign keys on and the busy timeout set, in WAL mode, and a
     * reader's with writes refused ({@code ReadOnlyFileDataSource}).
     */
    @Override
    public boolean opensPreparedConnections() {
        return true;
    }

    @Override
    public void prepare(Connection c) throws SQLException {
        // Also applied here because an application's own data source may not set them.
        String url = c.getMetaData().getURL();
        if (isInMemory(url)) {
            throw new SQLException(inMemoryMessage(url));
        }
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA foreign_keys = ON");
            s.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
            try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                if (rs.next() && "delete".equalsIgnoreCase(rs.getString(1))) {
                    s.execute("PRAGMA journal_mode = WAL");
                }
            }
        }
    }

    /**
     * {@code PRAGMA query_only}: SQLite's own per-connection switch, under which every statement that would change the
     * file fails with SQLITE_READONLY. (The driver cannot make an open connection read-only with
     * {@link Connection#setReadOnly}.) Readers on a WAL database never block a scan, and a scan never blocks them.
     */
    @Override
    public void prepareReadOnly(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only = ON");
        }
    }

    private static boolean isInMemory(String jdbcUrl) {
        return jdbcUrl == null || jdbcUrl.contains(":memory:") || jdbcUrl.endsWith(":sqlite:")
                || jdbcUrl.contains("mode=memory");
    }

    private static String inMemoryMessage(String jdbcUrl) {
        return "fsindex needs an SQLite database file, not an in-memory or temporary one ('" + jdbcUrl + "'): scans"
                + " use connections of their own, and each such connection is a separate, empty database."
                + " Use e.g. jdbc:sqlite:index.db";
    }

    /** The file part of an SQLite JDBC URL, for messages. */
    static String fileOf(String jdbcUrl) {
        String file = jdbcUrl.substring(jdbcUrl.indexOf(":sqlite:") + ":sqlite:".length());
        int query = file.indexOf('?');
        file = query < 0 ? file : file.substring(0, query);
        return file.startsWith("file:") ? file.substring("file:".length()) : file;
    }

    /** Takes the write lock up front: a deferred transaction that later upgrades can deadlock with another writer. */
    @Override
    public void begin(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
        }
        IdleConnections.inTransaction(c, true);
    }

    @Override
    public void commit(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("COMMIT");
        }
        IdleConnections.inTransaction(c, false);
    }

    @Override
    public void rollback(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.rollback();
            IdleConnections.inTransaction(c, false);
            return;
        }
        try (Statement s = c.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException e) {
            if (!String.valueOf(e.getMessage()).contains("no transaction is active")) {
                throw e;
            }
        }
        IdleConnections.inTransaction(c, false);
    }

    /** The main database file (as {@link #mainFile} names it) and the files SQLite keeps beside it. */
    @Override
    public Set<Path> databaseFiles(Connection c) throws SQLException {
        Path db = mainFile(c);
        if (db == null) {
            return Set.of();
        }
        Path dir = db.getParent();
        try {
            dir = dir.toRealPath();
        } catch (IOException unresolved) {
            // kept as given: then it cannot be inside a scanned tree's real paths anyway
        }
        String name = db.getFileName().toString();
        return Set.of(dir.resolve(name), dir.resolve(name + "-wal"), dir.resolve(name + "-shm"),
                dir.resolve(name + "-journal"));
    }

    /** The main database file of {@code c}, as {@code PRAGMA database_list} names it, absolute; null if it has none. */
    static Path mainFile(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA database_list")) {
            while (rs.next()) {
                String file = rs.getString("file");
                if ("main".equals(rs.getString("name")) && file != null && !file.isEmpty()) {
                    return Path.of(file).toAbsolutePath().normalize();
                }
            }
        }
        return null;
    }

}
