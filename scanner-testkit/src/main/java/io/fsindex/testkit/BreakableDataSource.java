package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Real connections to a test database that a test can take away: it remembers every connection it handed out, so a
 * test can close one under the code using it (as a dropped network connection would end it), and it can refuse new
 * ones (a database that stays unreachable).
 */
public final class BreakableDataSource implements DataSource {
    private final TestDatabase database;
    private final List<Connection> handedOut = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

    public BreakableDataSource(TestDatabase database) {
        this.database = database;
    }

    /** A builder for an index on this data source. */
    public FsIndex.Builder builder(String tablePrefix) {
        return database.withSettings(FsIndex.builder().dataSource(this).tablePrefix(tablePrefix));
    }

    /** How many connections were handed out so far. */
    public int handedOut() {
        return handedOut.size();
    }

    /** The {@code n}-th connection handed out (from 0). */
    public Connection connection(int n) {
        return handedOut.get(n);
    }

    /** From now on, every new connection fails. */
    public void refuseNewConnections() {
        refusing = true;
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (refusing) {
            throw new SQLException("connection refused (the test made the database unreachable)", "08001");
        }
        Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        handedOut.add(c);
        return c;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
