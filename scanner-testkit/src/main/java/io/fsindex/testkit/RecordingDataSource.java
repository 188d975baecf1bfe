package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Real connections to a test database that remember the SQL of every statement prepared on them, so a test can tell
 * which of two ways of answering a question fsindex took (both give the same answer; only the statements differ).
 */
public final class RecordingDataSource extends ConnectionSource {
    private final TestDatabase database;
    private final List<String> prepared = new CopyOnWriteArrayList<>();

    public RecordingDataSource(TestDatabase database) {
        this.database = database;
    }

    /** A builder for an index on this data source. */
    public FsIndex.Builder builder(String tablePrefix) {
        return database.withSettings(FsIndex.builder().dataSource(this).tablePrefix(tablePrefix));
    }

    /** The SQL of the statements prepared since the last {@link #forget()}, in order. */
    public List<String> prepared() {
        return List.copyOf(prepared);
    }

    /** Forgets what was prepared so far. */
    public void forget() {
        prepared.clear();
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql) {
                        prepared.add(sql);
                    }
                    try {
                        return method.invoke(c, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
