package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Real connections to a test database that a test can take away: it remembers every connection it handed out, so a
 * test can close one under the code using it (as a dropped network connection would end it), and it can refuse new
 * ones (a database that stays unreachable).
 */
public final class BreakableDataSource extends ConnectionSource {
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
}
