package io.fsindex.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The data source fsindex opens for an SQLite URL: connections to a file that already exists, with a message that
 * names the file when it no longer can be opened, kept open for reuse ({@link IdleConnections}) until it is closed.
 */
final class ExistingFileDataSource extends ForwardingDataSource implements AutoCloseable {
    private final String file;
    private final IdleConnections idle;

    ExistingFileDataSource(SQLiteDataSource target, String file) {
        super(target);
        this.file = file;
        this.idle = new IdleConnections();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection reused = idle.take();
        return reused != null ? reused : idle.lend(open());
    }

    private Connection open() throws SQLException {
        try {
            return target.getConnection();
        } catch (SQLiteException e) {
            if (e.getResultCode() != SQLiteErrorCode.SQLITE_CANTOPEN) {
                throw e;
            }
            throw new SQLException("cannot open the SQLite database file " + file + "; it was deleted or moved, or"
                    + " its directory is gone or unreadable (" + e.getMessage() + ")", e.getSQLState(),
                    e.getErrorCode(), e);
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
