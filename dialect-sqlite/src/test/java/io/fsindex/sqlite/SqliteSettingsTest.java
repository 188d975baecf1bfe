package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FsIndexException;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.PausingWalker;
import io.fsindex.testkit.Trees;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** The SQLite settings fsindex depends on, checked on the real file: foreign keys, WAL, AUTOINCREMENT, busy. */
class SqliteSettingsTest {
    @TempDir
    Path tmp;

    private Path tree() {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x.txt", "a/b/", "a/b/c/", "a/b/c/deep.txt", "keep.txt");
        return root;
    }

    private String url() {
        return "jdbc:sqlite:" + tmp.resolve("index.db");
    }

    /**
     * A huge directory's rows go into the files table's indexes in no order, which SQLite's default page cache of
     * 2,000 KiB turns into a page read and a page spilled to the WAL for nearly every row: every connection fsindex
     * opens itself gets the larger cache.
     */
    @Test
    void connectionsFsindexOpensHaveTheLargerPageCache() throws Exception {
        DataSource ds = new SqliteDialect().connections().openDataSource(url(), null, null,
                io.fsindex.core.spi.PoolOptions.DEFAULTS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA cache_size")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(-SqliteConnections.PAGE_CACHE_KIB);
        }
        assertThat(RawSqlite.queryLong(url(), "PRAGMA cache_size")).as("the driver's default").isEqualTo(-2000);
    }

    /**
     * The sweep deletes a directory's row and relies on ON DELETE CASCADE for everything below it; SQLite ignores
     * foreign keys unless each connection turns them on. An application's plain data source does not, so fsindex
     * must, on every connection it borrows. Every statement fsindex prepares is checked at the moment it is prepared.
     */
    @Test
    void foreignKeysAreOnForEveryStatementEvenThroughAnApplicationsPlainDataSource() throws Exception {
        Path root = tree();
        SQLiteDataSource plain = new SQLiteDataSource();
        plain.setUrl(url());
        assertThat(RawSqlite.queryLong(url(), "PRAGMA foreign_keys")).as("the driver's default").isZero();
        RecordingDataSource recording = new RecordingDataSource(plain);

        try (FsIndex index = FsIndex.builder().dataSource(recording).orphanRetention(Duration.ZERO).build()) {
            index.scan(root);
            long rowsBefore = RawSqlite.queryLong(url(), "SELECT COUNT(*) FROM fsindex_files");
            assertThat(index.lookup(root.resolve("a/b/c/deep.txt"))).isPresent();

            Trees.delete(root.resolve("a"));
            assertThat(index.scan(root).deleted()).isEqualTo(5);

            assertThat(RawSqlite.orphans(url(), "fsindex_")).as("rows left below the deleted directory").isZero();
            assertThat(RawSqlite.queryLong(url(), "SELECT COUNT(*) FROM fsindex_files")).isEqualTo(rowsBefore - 5);
            assertThat(index.children(root)).extracting(e -> e.name()).containsExactly("keep.txt");
        }
        assertThat(recording.prepared).anyMatch(sql -> sql.startsWith("delete from fsindex_files"));
        assertThat(recording.withoutForeignKeys).isEmpty();
    }

    @Test
    void theDatabaseIsInWalModeWhetherFsindexOpensItOrTheApplicationDoes() throws Exception {
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).build()) {
            assertThat(RawSqlite.queryString(url(), "PRAGMA journal_mode")).isEqualTo("wal");
        }

        String own = "jdbc:sqlite:" + tmp.resolve("own.db");
        SQLiteDataSource plain = new SQLiteDataSource();
        plain.setUrl(own);
        assertThat(RawSqlite.queryString(own, "PRAGMA journal_mode")).as("the driver's default").isEqualTo("delete");
        try (FsIndex index = FsIndex.builder().dataSource(plain).build()) {
            index.scan(tree());
            // journal_mode=WAL is a property of the file: every later connection, fsindex's or not, uses it.
            assertThat(RawSqlite.queryString(own, "PRAGMA journal_mode")).isEqualTo("wal");
        }
    }

    /**
     * Without AUTOINCREMENT SQLite hands out max(id)+1, so deleting the newest rows makes their ids come back; an
     * older scan could then write into a new row it takes for one it saw. The DDL must say AUTOINCREMENT and SQLite
     * must keep the high-water mark in sqlite_sequence.
     */
    @Test
    void idsAreNeverReusedAfterTheNewestRowsAreDeleted() throws Exception {
        Path root = tree();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).orphanRetention(Duration.ZERO).build()) {
            index.scan(root);
            long newest = RawSqlite.queryLong(url(), "SELECT MAX(id) FROM fsindex_files");
            String newestName = RawSqlite.queryString(url(), "SELECT name FROM fsindex_files WHERE id = " + newest);
            assertThat(newestName).isEqualTo("deep.txt");

            Trees.delete(root.resolve("a"));
            index.scan(root);
            assertThat(RawSqlite.queryLong(url(), "SELECT MAX(id) FROM fsindex_files")).isLessThan(newest);

            Trees.create(root, "new.txt");
            index.scan(root);
            assertThat(index.lookup(root.resolve("new.txt")).orElseThrow().id()).isGreaterThan(newest);
        }
        for (String table : List.of("fsindex_files", "fsindex_scans")) {
            assertThat(RawSqlite.queryString(url(), "SELECT sql FROM sqlite_master WHERE name = '" + table + "'"))
                    .containsIgnoringCase("INTEGER PRIMARY KEY AUTOINCREMENT");
            assertThat(RawSqlite.queryLong(url(), "SELECT seq FROM sqlite_sequence WHERE name = '" + table + "'"))
                    .isPositive();
        }
    }

    /**
     * A writer that never lets go must not hang a scan: after the retry timeout the scan fails, naming the busy
     * database and the timeout. Readers are not blocked meanwhile (WAL), and the index works once the lock is gone.
     */
    @Test
    void aDatabaseLockedForLongerThanTheRetryTimeoutFailsTheScanWithAClearMessage() throws Exception {
        Path root = tree();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).retryTimeout(Duration.ofMillis(300)).build()) {
            index.scan(root);
            try (Connection holder = RawSqlite.connect(url()); Statement s = holder.createStatement()) {
                s.execute("BEGIN IMMEDIATE");

                assertThatThrownBy(() -> index.scan(root))
                        .isInstanceOf(ScanFailedException.class)
                        .hasMessageContaining("cannot start a scan of " + root)
                        .hasMessageContaining("busy")
                        .hasMessageContaining("300 ms");
                assertThat(index.lookup(root.resolve("a/x.txt"))).as("a reader during the lock").isPresent();

                s.execute("ROLLBACK");
            }
            assertThat(index.scan(root).errors()).isEmpty();
        }
    }

    /**
     * The same mid-scan, at an exact point: the scan has claimed the root (children marked stale) when another
     * writer takes the lock for good. The scan must fail with the busy message and delete nothing; a later scan then
     * removes what is really gone.
     */
    @Test
    void aScanThatMeetsALockedDatabaseMidwayFailsAndDeletesNothing() throws Exception {
        Path root = tree().toRealPath();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).retryTimeout(Duration.ofMillis(300)).build()) {
            index.scan(root);
            Trees.delete(root.resolve("keep.txt"));
            PausingWalker walker = new PausingWalker();
            PausingWalker.Pause beforeA = walker.pauseBeforeListing(root.resolve("a"));
            ScanSession session = index.startScan(root, ScanOptions.defaults().withWalker(walker));
            beforeA.awaitPaused();

            try (Connection holder = RawSqlite.connect(url()); Statement s = holder.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                beforeA.release();
                assertThatThrownBy(session::await)
                        .isInstanceOf(ScanFailedException.class)
                        .hasMessageContaining("busy")
                        .hasMessageContaining("300 ms");
                s.execute("ROLLBACK");
            }
            assertThat(index.lookup(root.resolve("keep.txt"))).as("not deleted by the failed scan").isPresent();

            index.scan(root);
            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        }
    }

    /**
     * A database file that disappears under an open index (deleted, or its volume unmounted) is reported as such; it
     * is not silently replaced by a new empty file, which would answer "no such table" or, worse, start afresh.
     */
    @Test
    void aDeletedDatabaseFileFailsScansAndReadsWithAMessageNamingTheFile() throws Exception {
        Path root = tree();
        Path dbFile = tmp.resolve("index.db");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).build()) {
            index.scan(root);
            for (String suffix : List.of("", "-wal", "-shm")) {
                Files.deleteIfExists(Path.of(dbFile + suffix));
            }

            assertThatThrownBy(() -> index.scan(root))
                    .isInstanceOf(ScanFailedException.class)
                    .hasMessageContaining("cannot open the SQLite database file " + dbFile);
            assertThatThrownBy(() -> index.lookup(root))
                    .isInstanceOf(FsIndexException.class)
                    .hasMessageContaining("cannot open the SQLite database file " + dbFile);
            assertThat(dbFile).doesNotExist();
        }
    }

    @Test
    void aDatabaseWhoseDirectoryIsGoneFailsWithAMessageNamingTheFile() throws Exception {
        Path root = tree();
        Path dbFile = tmp.resolve("db/index.db");
        Files.createDirectories(dbFile.getParent());
        try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + dbFile).build()) {
            index.scan(root);
            Trees.delete(dbFile.getParent());
            assertThatThrownBy(() -> index.scan(root))
                    .isInstanceOf(ScanFailedException.class)
                    .hasMessageContaining("cannot open the SQLite database file " + dbFile);
        }
        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl("jdbc:sqlite:" + dbFile).build())
                .isInstanceOf(FsIndexException.class)
                .hasMessageContaining(dbFile.toString());
    }

    /** Pauses the scan just before it lists one directory, until released. */

    /**
     * An application's data source as it is, except that it notes, for every statement fsindex prepares, whether
     * the connection had foreign keys on at that moment.
     */
    private static final class RecordingDataSource extends ForwardingDataSource {
        final List<String> prepared = new CopyOnWriteArrayList<>();
        final List<String> withoutForeignKeys = new CopyOnWriteArrayList<>();

        RecordingDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            return record(target.getConnection());
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return record(target.getConnection(user, password));
        }

        private Connection record(Connection c) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement")) {
                            String sql = (String) args[0];
                            prepared.add(sql);
                            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA foreign_keys")) {
                                if (!rs.next() || rs.getInt(1) != 1) {
                                    withoutForeignKeys.add(sql);
                                }
                            }
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}
