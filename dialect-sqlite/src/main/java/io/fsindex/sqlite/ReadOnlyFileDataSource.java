package io.fsindex.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;
import org.sqlite.SQLiteOpenMode;

/**
 * The data source of a read-only index on an SQLite file: never creates the file, and reads it without write access
 * to the file or its directory. (Writes are refused by {@code PRAGMA query_only} on every connection; see
 * {@link SqliteConnections#prepareReadOnly}.)
 *
 * <p>A WAL database can be read only through its {@code -shm} and {@code -wal} files. While any connection has the
 * database open they exist and are used. When none does, they are gone, and a process that may not write the
 * directory cannot create them, so SQLite refuses to open the file. Then, and only if no {@code -wal} file exists,
 * the file is opened read-only as immutable (SQLite's {@code immutable=1}): read without locks, as nothing can be
 * writing it. A writer would first have to create the {@code -wal} file, which needs the write access
 * to the directory that this process lacks; a writer running as a different user that starts during such a read is
 * the one case this does not cover. Only the read-write connections are kept for reuse ({@link IdleConnections}):
 * an immutable one would never see a later write.
 */
final class ReadOnlyFileDataSource extends ForwardingDataSource implements AutoCloseable {
    private final Path file;
    private final SQLiteDataSource immutable;
    private final IdleConnections idle;

    ReadOnlyFileDataSource(String jdbcUrl, Path file) {
        // Read-write where the file allows it (SQLite opens a write-protected file read-only by itself): then the
        // last connection to close removes the -wal and -shm files it had to create, as a writer's does.
        super(dataSource(jdbcUrl, false));
        this.file = file;
        this.immutable = dataSource("jdbc:sqlite:" + file.toAbsolutePath().toUri() + "?immutable=1", true);
        this.idle = new IdleConnections();
    }

    private static SQLiteDataSource dataSource(String url, boolean readOnly) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(readOnly);
        config.resetOpenMode(SQLiteOpenMode.CREATE);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(SqliteConnections.BUSY_TIMEOUT_MILLIS);
        SQLiteDataSource ds = new SQLiteDataSource(config);
        ds.setUrl(url);
        return ds;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection reused = idle.take();
        if (reused != null) {
            return reused;
        }
        try {
            return idle.lend(readable(target.getConnection()));
        } catch (SQLiteException e) {
            if (e.getResultCode().code % 256 != SQLiteErrorCode.SQLITE_CANTOPEN.code
                    && e.getResultCode().code % 256 != SQLiteErrorCode.SQLITE_READONLY.code) {
                throw e;
            }
            if (!Files.exists(file)) {
                throw new SQLException("cannot open the SQLite database file " + file + "; it was deleted or moved,"
                        + " or its directory is gone or unreadable (" + e.getMessage() + ")", e.getSQLState(),
                        e.getErrorCode(), e);
            }
            if (Files.exists(Path.of(file + "-wal"))) {
                throw new SQLException("cannot read the SQLite database file " + file + " without write access to"
                        + " its directory while its -wal file exists (a scan is writing it, or one that was writing"
                        + " it died): let the scan finish, or run a scan to recover the file, then read again ("
                        + e.getMessage() + ")", e.getSQLState(), e.getErrorCode(), e);
            }
            return readable(immutable.getConnection());
        }
    }

    /**
     * Reads the file once, so a connection SQLite cannot read from fails here, where the fallback is decided, and
     * makes it refuse writes ({@link SqliteConnections#prepareReadOnly}).
     */
    private static Connection readable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA schema_version");
            s.execute("PRAGMA query_only = ON");
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection(); // SQLite has no users
    }

    @Override
    public void close() throws SQLException {
        idle.close();
    }
}
