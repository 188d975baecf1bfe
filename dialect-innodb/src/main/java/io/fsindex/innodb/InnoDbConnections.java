package io.fsindex.innodb;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.PoolOptions;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Connections to MySQL or MariaDB: a HikariCP pool when fsindex is given only a URL, READ COMMITTED and autocommit on
 * every connection, read-only sessions for a reader, and a named server lock around creating the schema (DDL commits
 * on its own there). What differs between the two engines comes from {@link InnoDbDialect}'s hooks.
 */
final class InnoDbConnections implements Connections {
    /** Connections the pool fsindex opens may hold at once: one per running scan, plus readers. */
    static final int MAX_POOL_SIZE = 32;
    /** How deep a directory tree the sweep may walk on the pool fsindex opens (a path is at most 4096 bytes). */
    static final int MAX_TREE_DEPTH = 4096;

    /** Makes a session refuse writes; sent explicitly, as a driver tracking session state may skip setReadOnly. */
    private static final String READ_ONLY_SESSION = "SET SESSION TRANSACTION READ ONLY";

    private final InnoDbDialect dialect;

    InnoDbConnections(InnoDbDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * A HikariCP pool (closed by {@code FsIndex.close()}) of {@link #MAX_POOL_SIZE} connections unless {@code pool}
     * says otherwise, at READ COMMITTED, reporting changed rows.
     */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return open(jdbcUrl, user, password, pool, false);
    }

    /** The same pool, of read-only sessions ({@link #prepareReadOnly}'s). */
    @Override
    public DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return open(jdbcUrl, user, password, pool, true);
    }

    /** Their connections come in autocommit at READ COMMITTED, and a reader's read-only from the start. */
    @Override
    public boolean opensPreparedConnections() {
        return true;
    }

    private DataSource open(String jdbcUrl, String user, String password, PoolOptions pool, boolean readOnly) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("fsindex-" + dialect.name());
        config.setJdbcUrl(jdbcUrl);
        config.setDriverClassName(dialect.driverClassName());
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(pool.maxPoolSizeOr(MAX_POOL_SIZE));
        config.setMetricRegistry(pool.metricRegistry());
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // 0 for an upsert that changed nothing, so SqlFileSink can tell a row a newer scan owns ("skipped").
        config.addDataSourceProperty("useAffectedRows", "true");
        config.addDataSourceProperty("sessionVariables", dialect.recursionLimitVariable() + "=" + MAX_TREE_DEPTH);
        dialect.extraDriverProperties().forEach(config::addDataSourceProperty);
        if (readOnly) {
            config.setReadOnly(true);
            config.setConnectionInitSql(READ_ONLY_SESSION);
        }
        return new HikariDataSource(config);
    }

    /** Sets READ COMMITTED and autocommit, also on connections from an application's own data source. */
    @Override
    public void prepare(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    }

    /**
     * A read-only session ({@code SET SESSION TRANSACTION READ ONLY}), said explicitly because a driver that tracks
     * session state locally may not send {@link Connection#setReadOnly} to the server.
     */
    @Override
    public void prepareReadOnly(Connection c) throws SQLException {
        c.setReadOnly(true);
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(READ_ONLY_SESSION);
        }
    }

    /** How long opening an index waits for another process that is creating or upgrading the same tables. */
    static final int SCHEMA_LOCK_SECONDS = 120;

    /** MySQL's DDL commits on its own, so a named lock keeps two processes from creating the tables at once. */
    @Override
    public void lockSchema(Connection c, String tablePrefix) throws SQLException {
        try (java.sql.PreparedStatement s = c.prepareStatement("SELECT GET_LOCK(?, ?)")) {
            s.setString(1, schemaLockName(tablePrefix));
            s.setInt(2, SCHEMA_LOCK_SECONDS);
            try (java.sql.ResultSet rs = s.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new SQLException("waited " + SCHEMA_LOCK_SECONDS + " s for another process creating or"
                            + " upgrading the fsindex tables " + tablePrefix + "* (lock " + schemaLockName(tablePrefix)
                            + ")");
                }
            }
        }
    }

    @Override
    public void unlockSchema(Connection c, String tablePrefix) throws SQLException {
        try (java.sql.PreparedStatement s = c.prepareStatement("SELECT RELEASE_LOCK(?)")) {
            s.setString(1, schemaLockName(tablePrefix));
            s.executeQuery().close();
        }
    }

    /** Lock names are server-wide and at most 64 characters; databases sharing a prefix only share the wait. */
    private static String schemaLockName(String tablePrefix) {
        String name = "fsindex_schema:" + tablePrefix;
        return name.length() <= 64 ? name : name.substring(0, 48) + Integer.toHexString(name.hashCode());
    }

}
