package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.PoolOptions;
import io.fsindex.testkit.Trees;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sqlite.BusyHandler;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Why SQLite's settings absorb SQLITE_BUSY: BEGIN IMMEDIATE, the busy timeout and retried transactions. The scans
 * from many threads and processes into one file run in {@link SqliteConcurrentScanTest}.
 */
class SqliteConcurrencyTest {
    /** The scan roots: the whole tree and nested subtrees of it, so every scan overlaps at least one other. */
    private static final List<String> SCAN_ROOTS = List.of("", "a", "a/b", "c");
    private static final int SCANS_PER_ROOT = 4;

    @TempDir
    Path tmp;

    private Path tree() {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "top.txt", "a/", "a/x.txt", "a/b/", "a/b/y.txt", "a/b/deep/", "a/b/deep/z.txt",
                "a/side/", "a/side/s.txt", "c/", "c/c.txt", "c/nested/", "c/nested/n.txt");
        for (int i = 0; i < 20; i++) {
            Trees.create(root, "a/b/many/file" + i, "c/many/file" + i);
        }
        return root;
    }

    private String url() {
        return "jdbc:sqlite:" + tmp.resolve("index.db");
    }

    /**
     * Why BEGIN IMMEDIATE: with a deferred transaction (JDBC's setAutoCommit(false), the Dialect default) two
     * connections that both read and then write fail with SQLITE_BUSY at once, busy timeout or not, because neither
     * can get the write lock without the other giving up its snapshot. Only a retry of the whole transaction helps.
     */
    @Test
    void deferredReadThenWriteTransactionsFailWithBusyThatNoWaitingCures() throws Exception {
        SqliteDialect dialect = new SqliteDialect();
        DataSource ds = dialect.connections().openDataSource(url(), null, null, PoolOptions.DEFAULTS);
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
            createCounter(a);
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            int seenByA = readCounter(a);
            int seenByB = readCounter(b);
            writeCounter(a, seenByA + 1);
            assertThatThrownBy(() -> writeCounter(b, seenByB + 1))
                    .isInstanceOfSatisfying(SQLiteException.class, e ->
                            assertThat(e.getResultCode().name()).startsWith("SQLITE_BUSY"));
            a.commit();
            b.rollback();
        }
    }

    /**
     * SqliteConnections.begin takes the write lock before the transaction reads anything: a second writer waits in BEGIN
     * (SQLite's busy handler, observed here) instead of reading a snapshot it can never write from, then reads the
     * first writer's result. The same interleaving with a deferred begin fails as in the test above.
     */
    @Test
    void beginImmediateMakesTheSecondWriterWaitAtBeginInsteadOfFailingLater() throws Exception {
        SqliteDialect dialect = new SqliteDialect();
        DataSource ds = dialect.connections().openDataSource(url(), null, null, PoolOptions.DEFAULTS);
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
            dialect.connections().prepare(a);
            dialect.connections().prepare(b);
            createCounter(a);
            CountDownLatch bIsWaiting = new CountDownLatch(1);
            CountDownLatch bWaitsOrIsDone = new CountDownLatch(1);
            BusyHandler.setHandler(b.unwrap(SQLiteConnection.class), new BusyHandler() {
                @Override
                protected int callback(int previousCalls) {
                    bIsWaiting.countDown();
                    bWaitsOrIsDone.countDown();
                    LockSupport.parkNanos(2_000_000);
                    return previousCalls < 60_000 ? 1 : 0;
                }
            });

            dialect.connections().begin(a);
            int seenByA = readCounter(a);
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> bSaw = other.submit(() -> {
                    try {
                        dialect.connections().begin(b);
                        int seen = readCounter(b);
                        writeCounter(b, seen + 1);
                        dialect.connections().commit(b);
                        return seen;
                    } finally {
                        bWaitsOrIsDone.countDown();
                    }
                });
                bWaitsOrIsDone.await(1, TimeUnit.MINUTES);
                assertThat(bIsWaiting.getCount()).as("b waits for the lock inside BEGIN").isZero();
                writeCounter(a, seenByA + 1);
                dialect.connections().commit(a);

                assertThat(bSaw.get(1, TimeUnit.MINUTES)).as("b read after a committed").isEqualTo(1);
                assertThat(readCounter(a)).isEqualTo(2);
            } finally {
                other.shutdownNow();
            }
        }
    }

    /** A failed BEGIN IMMEDIATE leaves no transaction behind, and rollback then is harmless (Database.write's path). */
    @Test
    void aBusyBeginLeavesTheConnectionUsable() throws Exception {
        SqliteDialect dialect = new SqliteDialect();
        DataSource ds = dialect.connections().openDataSource(url(), null, null, PoolOptions.DEFAULTS);
        try (Connection holder = ds.getConnection(); Connection waiter = ds.getConnection()) {
            dialect.connections().prepare(holder);
            dialect.connections().prepare(waiter);
            createCounter(holder);
            try (Statement s = waiter.createStatement()) {
                s.execute("PRAGMA busy_timeout = 0");
            }
            dialect.connections().begin(holder);
            SQLException busy = assertThrows(SQLException.class, () -> dialect.connections().begin(waiter));
            assertThat(dialect.errors().isRetryable(busy)).isTrue();
            assertThat(((SQLiteException) busy).getResultCode()).isEqualTo(SQLiteErrorCode.SQLITE_BUSY);
            dialect.connections().rollback(waiter); // nothing to roll back: must not throw
            dialect.connections().rollback(holder);

            dialect.connections().begin(waiter);
            writeCounter(waiter, 7);
            dialect.connections().commit(waiter);
            assertThat(readCounter(holder)).isEqualTo(7);
        }
    }

    /** Lock conflicts, in every extended form sqlite-jdbc reports them, are retried; nothing else is. */
    @ParameterizedTest
    @EnumSource(SQLiteErrorCode.class)
    void onlyBusyAndLockedAreRetried(SQLiteErrorCode code) {
        boolean lockConflict = code.name().startsWith("SQLITE_BUSY") || code.name().startsWith("SQLITE_LOCKED");
        SqliteDialect dialect = new SqliteDialect();
        assertThat(dialect.errors().isRetryable(new SQLiteException("x", code))).as(code.name()).isEqualTo(lockConflict);
        if (code.code >= 0) {
            // The same code on a plain SQLException, as a wrapping driver or pool may rethrow it.
            assertThat(dialect.errors().isRetryable(new SQLException("x", "HY000", code.code)))
                    .as("plain %s", code.name()).isEqualTo(lockConflict);
        }
    }

    /**
     * Scan ids come from getGeneratedKeys on the scan row's INSERT, which must return this connection's row even
     * while other connections insert theirs: every session's id is distinct and names a row with its own root.
     */
    @Test
    void scansStartedConcurrentlyGetTheIdOfTheirOwnScanRow() throws Exception {
        Path root = tree();
        List<String> roots = List.of("a", "a/b", "c", "a/side");
        ExecutorService pool = Executors.newFixedThreadPool(roots.size());
        List<FsIndex> indexes = new ArrayList<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<long[]>>> started = new ArrayList<>();
            for (int i = 0; i < roots.size(); i++) {
                FsIndex index = FsIndex.builder().jdbcUrl(url()).build();
                indexes.add(index);
                int which = i;
                started.add(pool.submit(() -> {
                    start.await();
                    List<long[]> ids = new ArrayList<>();
                    for (int n = 0; n < 10; n++) {
                        ScanSession s = index.startScan(root.resolve(roots.get(which)));
                        ids.add(new long[] {s.scanId(), which});
                        s.await();
                    }
                    return ids;
                }));
            }
            start.countDown();
            Set<Long> seen = new HashSet<>();
            for (Future<List<long[]>> f : started) {
                for (long[] idAndRoot : f.get(3, TimeUnit.MINUTES)) {
                    assertThat(seen.add(idAndRoot[0])).as("scan id %d handed out twice", idAndRoot[0]).isTrue();
                    assertThat(RawSqlite.queryString(url(), "SELECT root FROM fsindex_scans WHERE id = " + idAndRoot[0]))
                            .isEqualTo(root.resolve(roots.get((int) idAndRoot[1])).toString());
                }
            }
            assertThat(seen).hasSize(roots.size() * 10);
        } finally {
            pool.shutdownNow();
            indexes.forEach(FsIndex::close);
        }
    }

    /**
     * Switching a fresh file to WAL needs an exclusive lock, which SQLite refuses at once (no busy handler) to an
     * opener holding a shared lock; many threads opening one fresh file together must all succeed anyway. Without the
     * dialect's retry of that first connection, some of 50 rounds of 8 openers fail with SQLITE_BUSY.
     */
    @Test
    void manyThreadsOpeningOneFreshFileTogetherAllSucceed() throws Exception {
        SqliteDialect dialect = new SqliteDialect();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 50; round++) {
                String url = "jdbc:sqlite:" + tmp.resolve("fresh-" + round + ".db");
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> opening = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    opening.add(pool.submit(() -> {
                        start.await();
                        try (Connection c = dialect.connections().openDataSource(url, null, null, PoolOptions.DEFAULTS)
                                .getConnection();
                                Statement s = c.createStatement();
                                ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                            rs.next();
                            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : opening) {
                    f.get(2, TimeUnit.MINUTES);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void createCounter(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE counter (v INTEGER NOT NULL)");
            s.execute("INSERT INTO counter (v) VALUES (0)");
        }
    }

    private static int readCounter(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM counter")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void writeCounter(Connection c, int value) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE counter SET v = " + value);
        }
    }
}
