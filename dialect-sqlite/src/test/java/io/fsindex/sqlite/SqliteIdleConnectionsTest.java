package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FsIndexException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.PoolOptions;
import io.fsindex.testkit.FeedAudit;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;

/**
 * Connections closed by their users are kept open for the next one ({@link IdleConnections}), but only in the state
 * a new connection starts in: whoever takes one next sees no transaction, no snapshot and no lock of the last user's.
 */
class SqliteIdleConnectionsTest {
    @TempDir
    Path tmp;

    private final Connections connections = new SqliteDialect().connections();
    private DataSource ds;

    @BeforeEach
    void createTable() throws SQLException {
        ds = connections.openDataSource(url(), null, null, PoolOptions.DEFAULTS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (v INTEGER)");
        }
    }

    @AfterEach
    void closeDataSource() throws Exception {
        ((AutoCloseable) ds).close();
    }

    private String url() {
        return "jdbc:sqlite:" + tmp.resolve("index.db");
    }

    @Test
    void aClosedConnectionIsTheNextOneHandedOut() throws SQLException {
        SQLiteConnection first;
        try (Connection c = ds.getConnection()) {
            first = c.unwrap(SQLiteConnection.class);
        }
        try (Connection c = ds.getConnection()) {
            assertThat(c.unwrap(SQLiteConnection.class)).isSameAs(first);
        }
    }

    @Test
    void aClosedPreparedStatementIsTheNextOneForItsSqlAndStartsAfresh() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO t VALUES (1), (2), (3)");
        }
        String sql = "SELECT v FROM t WHERE v >= ? ORDER BY v";
        PreparedStatement first;
        try (Connection c = ds.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
            first = p.unwrap(PreparedStatement.class);
            p.setMaxRows(1);
            p.setInt(1, 2);
            assertThat(values(p)).containsExactly(2L);
        }
        try (Connection c = ds.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
            assertThat(p.unwrap(PreparedStatement.class)).isSameAs(first);
            assertThat(p.getConnection()).isSameAs(c);
            p.setInt(1, 1);
            assertThat(values(p)).as("no row limit left over").containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void aPreparedStatementOnceClosedReadsAsClosedAndRefusesCalls() throws SQLException {
        try (Connection c = ds.getConnection()) {
            PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE v = ?");
            p.close();
            p.close();
            assertThat(p.isClosed()).isTrue();
            assertThatThrownBy(() -> p.setInt(1, 1)).isInstanceOf(SQLException.class).hasMessage("closed");
            assertThatThrownBy(p::executeQuery).isInstanceOf(SQLException.class).hasMessage("closed");
            try (PreparedStatement again = c.prepareStatement("SELECT v FROM t WHERE v = ?")) {
                again.setInt(1, 1);
                assertThat(values(again)).as("the kept statement, given back once").isEmpty();
            }
        }
    }

    @Test
    void aConnectionClosedInsideATransactionIsNotHandedOutAgain() throws SQLException {
        try (Connection c = ds.getConnection()) {
            connections.begin(c);
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO t VALUES (1)");
            }
        }
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            assertThat(count(s)).as("the uncommitted row").isZero();
            connections.begin(c);   // would fail as a transaction within a transaction, or wait on the old write lock
            s.execute("INSERT INTO t VALUES (2)");
            connections.commit(c);
        }
        assertThat(RawSqlite.queryLong(url(), "SELECT count(*) FROM t")).isEqualTo(1);
    }

    @Test
    void aStatementLeftOpenDoesNotKeepItsSnapshotForTheNextUser() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO t VALUES (1), (2)");
        }
        try (Connection c = ds.getConnection()) {
            ResultSet halfRead = c.createStatement().executeQuery("SELECT v FROM t");
            assertThat(halfRead.next()).isTrue();
            ResultSet halfReadPrepared = c.prepareStatement("SELECT v FROM t").executeQuery();
            assertThat(halfReadPrepared.next()).isTrue();
        }
        RawSqlite.execute(url(), "INSERT INTO t VALUES (3)");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            assertThat(count(s)).as("rows written after the last user's read began").isEqualTo(3);
        }
    }

    /** Unused for a while, a connection is closed: it no longer holds its share of the file's locks. */
    @Test
    void aConnectionUnusedForAWhileIsClosed() throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO t VALUES (1)");
        }
        Path wal = Path.of(tmp.resolve("index.db") + "-wal");
        assertThat(wal).as("kept by the idle connection").exists();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IdleConnections.IDLE_MILLIS * 20);
        while (Files.exists(wal) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(wal).as("removed by the last connection to close").doesNotExist();
    }

    /**
     * The fault campaign's feed consumer, reading all along, leaves its connection idle long enough between reads for
     * it to close: otherwise the campaign's exclusive locker of the file waits for ever.
     */
    @Test
    void theFeedAuditIdlesLongerThanAConnectionIsKept() {
        assertThat(FeedAudit.IDLE_POLL.toMillis()).isGreaterThan(IdleConnections.IDLE_MILLIS);
    }

    /** A kept connection still reads the file it opened, even once deleted: it is not handed out then. */
    @Test
    void aDatabaseFileDeletedUnderAKeptConnectionIsReportedNotReadFromTheDeletedFile() throws Exception {
        Path root = tmp.resolve("tree");
        Path db = tmp.resolve("other.db");
        try (FsIndex index = scannedAndLookedUp(root, db)) {
            for (String suffix : List.of("", "-wal", "-shm")) {
                Files.delete(Path.of(db + suffix));
            }
            assertThatThrownBy(() -> index.lookup(root.resolve("a/x.txt")))
                    .isInstanceOf(FsIndexException.class)
                    .hasMessageContaining("cannot open the SQLite database file " + db);
        }
    }

    /** SQLite removes the -wal and -shm files when the last connection closes: none is left open by the index. */
    @Test
    void closingTheIndexClosesItsIdleConnections() throws Exception {
        Path root = tmp.resolve("tree");
        Path db = tmp.resolve("other.db");
        try (FsIndex index = scannedAndLookedUp(root, db)) {
            assertThat(Path.of(db + "-wal")).exists();
        }
        assertThat(Path.of(db + "-wal")).doesNotExist();
        assertThat(Path.of(db + "-shm")).doesNotExist();
    }

    /** An index at {@code db} of a small tree at {@code root}, scanned, one of its files looked up. */
    private static FsIndex scannedAndLookedUp(Path root, Path db) {
        Trees.create(root, "./", "a/", "a/x.txt");
        FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + db).build();
        index.scan(root);
        assertThat(index.lookup(root.resolve("a/x.txt"))).isPresent();
        return index;
    }

    private static List<Long> values(PreparedStatement p) throws SQLException {
        List<Long> out = new java.util.ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
