package io.fsindex.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.PoolOptions;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * PostgreSQL's connections: a HikariCP pool when fsindex is given only a URL, autocommit between writes, and
 * read-only sessions for a reader. Transactions run at the connection's isolation level (see {@link PostgresDialect}).
 */
final class PostgresConnections implements Connections {
    /** Connections one index may hold; each running scan keeps one for its whole run. */
    static final int MAX_POOL_SIZE = 10;
    /**
     * The {@code work_mem} of the sessions fsindex opens for an index whose scans write the name search index. A
     * scan's insert that finds that index's pending list full moves the list into the index in passes of
     * {@code work_mem}; PostgreSQL's default 4 MB splits {@link PostgresNameSearch}'s list into several passes over
     * the same posting trees. It bounds each sort or hash of a statement too, which fsindex's own statements rarely
     * need, so other sessions keep the server's setting.
     */
    static final String WORK_MEM = "64MB";
    /** Makes a session refuse writes; the driver's setReadOnly alone does not for autocommit statements. */
    private static final String READ_ONLY_SESSION = "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY";

    /**
     * A HikariCP pool for the URL, of {@link #MAX_POOL_SIZE} connections unless {@code pool} says otherwise; it is
     * AutoCloseable, so the index that opened it closes it.
     */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return open(jdbcUrl, user, password, pool, false);
    }

    /** The same pool (connecting creates nothing), of read-only sessions ({@link #prepareReadOnly}'s). */
    @Override
    public DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return open(jdbcUrl, user, password, pool, true);
    }

    /** Their connections come in autocommit, and a reader's read-only from their first statement on. */
    @Override
    public boolean opensPreparedConnections() {
        return true;
    }

    private DataSource open(String jdbcUrl, String user, String password, PoolOptions pool, boolean readOnly) {
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
        // One init statement per pool: a reader's makes its sessions refuse writes; a writer's, only where scans
        // write the name search index, raises work_mem. Once per new connection, by a statement rather than the
        // startup packet's options, which some poolers (PgBouncer) refuse; a URL that sets work_mem itself
        // (options=-c work_mem=…) keeps its value.
        if (readOnly) {
            config.setReadOnly(true);
            config.setConnectionInitSql(READ_ONLY_SESSION);
        } else if (pool.writesNameSearchIndex()
                && !jdbcUrl.toLowerCase(java.util.Locale.ROOT).contains("work_mem")) {
            config.setConnectionInitSql("SET work_mem = '" + WORK_MEM + "'");
        }
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
            s.execute(READ_ONLY_SESSION);
        }
    }
}
