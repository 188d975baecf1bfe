package io.fsindex.postgres;

import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.PoolOptions;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.postgresql.PGConnection;

/**
 * The PostgreSQL dialect (PostgreSQL 12 or newer; tested on 16). Serves {@code jdbc:postgresql:} URLs, and
 * Testcontainers' {@code jdbc:tc:postgresql:}; when only a URL is given, connections come from a HikariCP pool that
 * {@code FsIndex.close()} closes. Ids are identity columns, whose sequences never hand out a value twice, even after
 * the newest rows are deleted or the server restarts (a crash may skip values, never repeat them).
 *
 * <h2>Why the shared statements are safe here</h2>
 * Transactions run at the connection's isolation level; the reasoning below is for READ COMMITTED, PostgreSQL's
 * default, where every statement sees what was committed when it started and a row another transaction is changing
 * is waited for and then re-checked in its newest version. Stronger levels are safe too; they only turn more of the
 * waits below into serialization failures, which are retried.
 * <ul>
 * <li><b>Upsert of an existing row</b> ({@code ON CONFLICT (parent, name) DO UPDATE ... WHERE files.scan_id <=
 *     :scan}): the conflicting row is locked and the condition is checked on its newest committed version, so an
 *     older scan can never overwrite what a newer one wrote, whatever the interleaving.</li>
 * <li><b>Two scans inserting the same new row</b>: the second insert waits for the first transaction on the
 *     {@code UNIQUE (parent, name)} arbiter and then takes the update path with the same {@code scan_id} check; it
 *     never fails with a unique violation (23505), so one conflict cannot abort a directory's batch.</li>
 * <li><b>The conditional insert's parent check</b> is where READ COMMITTED differs from SQLite's one-writer-at-a-time:
 *     a plain {@code EXISTS} reads the parent from the statement's snapshot and locks nothing, so (1) a newer scan
 *     could claim the parent (raise {@code listed_by}) and mark its children stale while an older scan, still
 *     seeing the old {@code listed_by}, inserts a child the newer scan never marks: a row resurrected after the
 *     newer scan has seen it gone; and (2) a newer scan's sweep could delete the parent between the check and the
 *     insert, failing the insert's foreign key (23503) and with it the whole transaction. This dialect therefore
 *     checks the parent with {@code EXISTS (SELECT 1 ... FOR SHARE)}. FOR SHARE conflicts with the claim's and the
 *     upsert's row lock and with the sweep's delete, so the insert and the claim/mark/sweep of the parent are
 *     ordered: either the insert goes first and the claim's mark, a later statement, sees the committed child; or
 *     the claim or delete goes first and the waiting check, re-evaluated on the newest version of the parent, finds
 *     {@code listed_by} too new or the row gone and inserts nothing ("skip this subtree"). The lock is only ever
 *     taken on a row that exists: a FOR SHARE that finds no row locks nothing, and PostgreSQL has no gap locks, so
 *     InnoDB's deadlock on locking absent rows (see dialect-mysql) cannot happen here.</li>
 * <li><b>Claim and listing</b>: the claim is an {@code UPDATE} of the directory's row; applying a listing first
 *     reads that row {@code FOR SHARE} ({@link #lockedWhereConcurrent}) and writes nothing unless {@code listed_by} is still
 *     its scan. The two locks conflict, so a newer claim either waits for the listing's transaction to commit, or
 *     commits first and the listing, re-reading the newest version, sees it and applies nothing. The stale mark of a
 *     missing row and the sweep are single {@code UPDATE}s and {@code DELETE}s whose conditions
 *     ({@code scan_id <= :scan}, {@code scan_id = :scan AND stale = 1}) are re-checked on a concurrently changed
 *     row's newest version.</li>
 * </ul>
 * What can still fail is retried as a whole transaction by fsindex ({@link #isRetryable}): serialization failures
 * (40001), deadlocks (40P01, e.g. two scans claiming the same subdirectories in different orders) and lock
 * timeouts (55P03). A foreign-key (23503) or unique (23505) violation should not occur given the above (but for
 * a {@code COPY} below a directory the scan inserted, where a newer partial scan's root can already be: the retry
 * then inserts), but if one does it is retried too, not skipped: a retry re-runs the whole directory's transaction, whose checks then see the
 * committed state and skip what must be skipped, so a directory's batch is applied entirely or not at all. The same
 * classification lets two processes creating the schema at once both succeed: the loser's {@code CREATE TABLE}
 * fails with 23505 on the catalog and its retry finds the schema in place. A {@code CREATE} that fails with
 * duplicate_table (42P07) is run again only if another connection has committed the schema meanwhile (fsindex
 * checks); otherwise a name is taken for good, and the error is reported at once.
 */
public final class PostgresDialect implements Dialect {
    /** SQLSTATEs after which fsindex retries the whole transaction; see the class comment for why each is here. */
    static final Set<String> RETRYABLE_STATES = Set.of(
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "55P03", // lock_not_available
            "23505", // unique_violation: a concurrent CREATE of the schema (on the catalog), or a COPY meeting a row
            "23503"); // foreign_key_violation: parent deleted concurrently; the retry's EXISTS check skips the child

    /** Connections one index may hold; each running scan keeps one for its whole run. */
    static final int MAX_POOL_SIZE = 10;

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public boolean handlesJdbcUrl(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.contains(":postgresql:");
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.POSTGRES;
    }

    @Override
    public java.util.Optional<io.fsindex.core.spi.NameSearchIndex> nameSearchIndex() {
        return java.util.Optional.of(new PostgresNameSearch());
    }

    /** A HikariCP pool of {@link #MAX_POOL_SIZE} connections for the URL; see the four-argument form. */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password) {
        return openDataSource(jdbcUrl, user, password, PoolOptions.DEFAULTS);
    }

    /** The same pool as {@link #openDataSource}: connecting to a server creates nothing. */
    @Override
    public DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return openDataSource(jdbcUrl, user, password, pool);
    }

    /** A HikariCP pool for the URL; it is AutoCloseable, so the index that opened it closes it. */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("fsindex-postgresql");
        config.setJdbcUrl(jdbcUrl);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(pool.maxPoolSizeOr(MAX_POOL_SIZE));
        config.setMetricRegistry(pool.metricRegistry());
        // Open connections on demand: many indexes (processes) may share one server's connection limit.
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        // Shows fsindex's sessions in pg_stat_activity; a URL's own ApplicationName wins.
        config.addDataSourceProperty("ApplicationName", "fsindex");
        // A batch of inserts goes as multi-row INSERTs: a round trip per 128 rows instead of one per row.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            // HikariCP connects once up front, so a wrong URL, user or password fails here, in the builder.
            throw new FsIndexException("cannot connect to PostgreSQL at " + redact(jdbcUrl) + ": " + e.getMessage()
                    + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""), e);
        }
    }

    /** Hides a password given inside a JDBC URL, so it never reaches a log. */
    static String redact(String jdbcUrl) {
        return jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//([^:/@]+):[^@/]*@", "//$1:***@");
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        // An application's data source may hand out connections in manual-commit mode; fsindex's reads expect
        // autocommit, or they would leave a transaction (and its snapshot) open between writes.
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
    }

    /**
     * A read-only session ({@code default_transaction_read_only}): the driver's {@link Connection#setReadOnly} alone
     * changes nothing on the server for autocommit statements, which is how fsindex reads.
     */
    @Override
    public void prepareReadOnly(Connection connection) throws SQLException {
        connection.setReadOnly(true);
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
        }
    }

    /**
     * New children of a directory the scan inserted itself go in by {@code COPY FROM STDIN}, one round trip for a
     * whole wave, instead of multi-row {@code INSERT … ON CONFLICT} statements: about a third less server time per row.
     * Their ids come first from the identity's sequence, one statement for the wave, so the scan need not read new
     * directories back to claim them, and the change feed's rows follow by {@code COPY} too.
     */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        String copy = copyInto(t.filesName(), BulkLoader.columns(t));
        String copyChanges = copyInto(t.changesName(), BulkLoader.changeColumns(t));
        return new BulkLoader() {
            /** {@code nextval} of the identity's sequence, whose name PostgreSQL is asked once, not assumed. */
            private volatile String newIdsSql;

            @Override
            public long[] newIds(Connection c, int count) throws SQLException {
                long[] ids = new long[count];
                int taken = 0;
                try (PreparedStatement s = c.prepareStatement(newIdsStatement(c))) {
                    s.setInt(1, count);
                    try (ResultSet rs = s.executeQuery()) {
                        while (taken < count && rs.next()) {
                            ids[taken++] = rs.getLong(1);
                        }
                    }
                }
                if (taken < count) {
                    // A missing id would go in as 0 and collide later; never load rows without their ids.
                    throw new SQLException("the sequence of " + t.filesName() + " gave " + taken + " of " + count
                            + " ids");
                }
                return ids;
            }

            private String newIdsStatement(Connection c) throws SQLException {
                if (newIdsSql == null) {
                    try (PreparedStatement s = c.prepareStatement("SELECT pg_get_serial_sequence(?, 'id')")) {
                        s.setString(1, t.filesName());
                        try (ResultSet rs = s.executeQuery()) {
                            String sequence = rs.next() ? rs.getString(1) : null;
                            if (sequence == null) {
                                throw new SQLException(t.filesName() + ".id has no sequence to take ids from");
                            }
                            newIdsSql = "SELECT nextval('" + sequence.replace("'", "''")
                                    + "') FROM generate_series(1, ?)";
                        }
                    }
                }
                return newIdsSql;
            }

            @Override
            public long load(Connection c, InputStream text) throws SQLException {
                return copyIn(c, copy, text);
            }

            @Override
            public void loadChanges(Connection c, InputStream text) throws SQLException {
                copyIn(c, copyChanges, text);
            }
        };
    }

    private static long copyIn(Connection c, String copy, InputStream text) throws SQLException {
        try {
            return c.unwrap(PGConnection.class).getCopyAPI().copyIn(copy, text);
        } catch (IOException e) {
            throw new SQLException("cannot send rows to " + copy + ": " + e.getMessage(), e);
        }
    }

    /** A {@code COPY} statement of {@link #bulkLoader}: into {@code table}, {@code columns} in their order. */
    static String copyInto(String table, java.util.List<org.jooq.Field<?>> columns) {
        return "COPY " + table + " (" + columns.stream().map(org.jooq.Field::getName)
                .collect(Collectors.joining(", ")) + ") FROM STDIN";
    }

    /**
     * {@code ANALYZE}: autovacuum refreshes statistics at most once a minute, and without them a rescan right after
     * a cold scan plans each wave's read of a million-row table as a sequential scan. SKIP_LOCKED: if autovacuum is
     * analyzing the table already, there is nothing to wait for.
     */
    @Override
    public Query analyzeFiles(FsTables t) {
        return DSL.query("analyze (skip_locked) {0}", t.files);
    }

    /**
     * NAMEDATALEN - 1: PostgreSQL cuts a longer name short (with only a notice), so two of fsindex's names could
     * become one.
     */
    @Override
    public int maxIdentifierLength() {
        return 63;
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return e.getSQLState() != null && RETRYABLE_STATES.contains(e.getSQLState());
    }

    /** Besides class 08: the server terminated the session (admin command, crash recovery) or is starting up. */
    @Override
    public boolean isConnectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P0"));
    }

    /**
     * Every guard (the conditional insert's parent check, a listing's owner check) reads its rows {@code FOR SHARE},
     * so it waits for a newer scan's uncommitted claim and then sees it (see the class comment).
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedWhereConcurrent(
            org.jooq.SelectConditionStep<R> guard) {
        return guard.forShare();
    }

    /**
     * A sweep's reads {@code FOR UPDATE}: a row another transaction is changing is waited for and then read in its
     * newest version, which READ COMMITTED's plain reads would not do.
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedForWrite(org.jooq.SelectConditionStep<R> read) {
        return read.forUpdate();
    }
}
