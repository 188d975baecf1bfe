package io.fsindex.postgres;

import io.fsindex.core.scan.ScanIds;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * One plain JDBC session on the test server that runs the dialect's own statements, rendered as fsindex renders
 * them, with parameters bound by name; lets a test hold a transaction open at an exact point while another session
 * (or a real scan) runs into it.
 */
final class PgSession implements AutoCloseable {
    private static final Pattern NAMED = Pattern.compile(":([A-Za-z_][A-Za-z0-9_]*)");
    private static final DSLContext CTX = DSL.using(SQLDialect.POSTGRES, new Settings()
            .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
            .withRenderNamedParamPrefix(":"));

    final Connection connection;
    final FsTables t;
    final long pid;

    PgSession(TestDatabase db, FsTables t) throws SQLException {
        this.connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        this.t = t;
        this.pid = queryLong("SELECT pg_backend_pid()");
    }

    void begin() throws SQLException {
        connection.setAutoCommit(false);
    }

    void commit() throws SQLException {
        connection.commit();
        connection.setAutoCommit(true);
    }

    /** Runs one of the dialect's statements; the values are name/value pairs for its {@code :name} parameters. */
    int run(Query query, Map<String, Object> values) throws SQLException {
        try (PreparedStatement s = prepare(query, List.of(values))) {
            return s.executeUpdate();
        }
    }

    /** Runs one of the dialect's statements as a JDBC batch, once per map of values, as fsindex runs its batches. */
    int[] runBatch(Query query, List<Map<String, Object>> rows) throws SQLException {
        try (PreparedStatement s = prepare(query, rows)) {
            return s.executeBatch();
        }
    }

    private PreparedStatement prepare(Query query, List<Map<String, Object>> rows) throws SQLException {
        String named = CTX.renderNamedParams(query);
        List<String> names = new ArrayList<>();
        Matcher m = NAMED.matcher(named);
        StringBuilder sql = new StringBuilder();
        while (m.find()) {
            names.add(m.group(1));
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        PreparedStatement s = connection.prepareStatement(sql.toString());
        for (Map<String, Object> values : rows) {
            for (int i = 0; i < names.size(); i++) {
                if (!values.containsKey(names.get(i))) {
                    throw new IllegalArgumentException("no value for :" + names.get(i) + " in " + named);
                }
                Object v = values.get(names.get(i));
                if (v == null) {
                    s.setNull(i + 1, Types.VARCHAR);
                } else if (v instanceof Long l) {
                    s.setLong(i + 1, l);
                } else {
                    s.setString(i + 1, (String) v);
                }
            }
            if (rows.size() > 1) {
                s.addBatch();
            }
        }
        return s;
    }

    long queryLong(String sql, Object... args) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row from " + sql);
                }
                return rs.getLong(1);
            }
        }
    }

    /**
     * Inserts a scans row and returns its id; later calls return larger ids, as with FsIndex.startScan, whose ids
     * come from the counter row: an explicit id leaves the identity sequence behind, so this takes one the same way,
     * with the allocator's own statements.
     */
    long newScan() throws SQLException {
        long id = ScanIds.next(connection, t.prefix);
        return queryLong("INSERT INTO " + t.scansName() + " (id, root, state, started_at)"
                + " VALUES (?, '/', 'RUNNING', 0) RETURNING id", id);
    }

    /**
     * Waits until the server reports backend {@code pid} waiting for a lock, or until {@code work} ends without
     * having waited. The server's own state is the signal; there is no latch inside PostgreSQL to wait on.
     */
    boolean awaitLockWait(long pid, Future<?> work) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !work.isDone()) {
            if (queryLong("SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'",
                    (int) pid) > 0) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /** Waits until another backend whose current statement mentions {@code text} (a table name) waits for a lock. */
    boolean awaitAnyLockWaitOn(String text, Future<?> work) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !work.isDone()) {
            if (queryLong("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> ?"
                    + " AND position(? in query) > 0", (int) pid, text) > 0) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
