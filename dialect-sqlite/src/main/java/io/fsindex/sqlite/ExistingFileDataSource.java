package io.fsindex.sqlite;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The data source fsindex opens for an SQLite URL: connections to a file that already exists, with a message that
 * names the file when it no longer can be opened.
 */
final class ExistingFileDataSource implements DataSource {
    private final SQLiteDataSource target;
    private final String file;

    ExistingFileDataSource(SQLiteDataSource target, String file) {
        this.target = target;
        this.file = file;
    }

    @Override
    public Connection getConnection() throws SQLException {
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
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return iface.isInstance(target) ? iface.cast(target) : target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(target) || target.isWrapperFor(iface);
    }

    @Override
    public String toString() {
        return "SQLite database file " + file;
    }
}
