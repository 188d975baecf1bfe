package io.fsindex.core.spi;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import javax.sql.DataSource;

/**
 * How a dialect's engine is connected to and how its sessions and transactions run: the data sources fsindex opens
 * when given only a URL, the settings of every connection it borrows, its write transactions and the lock that
 * serialises creating the schema. Handed out by {@link Dialect#connections()}.
 */
public interface Connections {

    /**
     * Opens a data source for a URL when the application gave none, pooled and observed as {@code pool} says (a
     * dialect that does not pool ignores it); fsindex closes it if it is AutoCloseable.
     */
    DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool);

    /**
     * Opens a data source for a read-only index ({@code FsIndex.Builder.buildReader()}), which must neither create a
     * database that does not exist nor need write access; by default {@link #openDataSource}, right for servers.
     */
    default DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return openDataSource(jdbcUrl, user, password, pool);
    }

    /**
     * Whether the connections of the data sources this dialect opens ({@link #openDataSource},
     * {@link #openReadOnlyDataSource}) come prepared: as {@link #prepare} would leave them and, from the read-only one,
     * refusing every write as {@link #prepareReadOnly} makes them. Then fsindex prepares only the connections of an
     * application's data source, saving every borrow the round trips of doing it again; false by default.
     */
    default boolean opensPreparedConnections() {
        return false;
    }

    /**
     * Prepares a connection just taken from the data source (per-connection settings); called on every borrow, but
     * only from an application's data source if {@link #opensPreparedConnections}.
     */
    default void prepare(Connection connection) throws SQLException {
    }

    /**
     * Makes a {@link #prepare prepared} connection of a read-only index refuse every write at the database level
     * until it is closed; by default {@link Connection#setReadOnly}.
     */
    default void prepareReadOnly(Connection connection) throws SQLException {
        connection.setReadOnly(true);
    }

    /** Begins a write transaction that takes the locks it needs up front. */
    default void begin(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
    }

    /** Commits the transaction {@link #begin} began, leaving the connection in autocommit. */
    default void commit(Connection connection) throws SQLException {
        connection.commit();
        connection.setAutoCommit(true);
    }

    /** Rolls back the transaction {@link #begin} began, leaving the connection usable. */
    default void rollback(Connection connection) throws SQLException {
        connection.rollback();
        connection.setAutoCommit(true);
    }

    /**
     * Keeps other connections, in any process, from creating or upgrading the tables with {@code tablePrefix} until
     * {@link #unlockSchema}; needed where DDL commits on its own, so a transaction cannot serialise two processes
     * opening a fresh database at once. Does nothing by default.
     */
    default void lockSchema(Connection connection, String tablePrefix) throws SQLException {
    }

    /** Releases the lock {@link #lockSchema} took. */
    default void unlockSchema(Connection connection, String tablePrefix) throws SQLException {
    }

    /**
     * The files holding the database on this machine, as real paths, if the engine keeps it in files a scan could
     * meet (SQLite's file and its {@code -wal}, {@code -shm}, {@code -journal}); scans never index them. None by
     * default: a server keeps its files to itself.
     */
    default Set<Path> databaseFiles(Connection connection) throws SQLException {
        return Set.of();
    }
}
