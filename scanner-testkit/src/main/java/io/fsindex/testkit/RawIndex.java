package io.fsindex.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Plain JDBC on a test database, bypassing fsindex, to look at what fsindex left in its tables. */
public final class RawIndex {
    private final TestDatabase database;
    private final String prefix;

    public RawIndex(TestDatabase database, String prefix) {
        this.database = database;
        this.prefix = prefix;
    }

    /** The first column of the first row of {@code sql}, with {@code ${prefix}} replaced; 0 if there is no row. */
    public long queryLong(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql.replace("${prefix}", prefix))) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** Like {@link #queryLong}, or {@code fallback} if the query fails (e.g. the table does not exist). */
    public long queryLongOr(String sql, long fallback) {
        try {
            return queryLong(sql);
        } catch (SQLException e) {
            return fallback;
        }
    }

    /** A plain connection to the test database, outside fsindex (the caller closes it). */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
    }

    /** Runs one statement with {@code ${prefix}} replaced, returning the update count. */
    public int update(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            return s.executeUpdate(sql.replace("${prefix}", prefix));
        }
    }

    /** Rows whose parent row is gone or is not a directory: what a sweep leaves behind if the cascade did not run. */
    public long orphans() throws SQLException {
        return queryLong("SELECT COUNT(*) FROM ${prefix}files c WHERE c.parent IS NOT NULL AND NOT EXISTS"
                + " (SELECT 1 FROM ${prefix}files p WHERE p.id = c.parent AND p.kind = 'DIRECTORY')");
    }

    /** How many tables of the connection's schema have names that start with the prefix, in any case. */
    public long tableCount() throws SQLException {
        try (Connection c = connect()) {
            return tableNames(c, prefix).size();
        }
    }

    /** The tables of {@code c}'s schema whose names start with {@code prefix}, in any case, as the engine stores them. */
    public static List<String> tableNames(Connection c, String prefix) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), null, new String[] {"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (name.toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT))) {
                    tables.add(name);
                }
            }
        }
        return tables;
    }

    /** Rows still marked stale. */
    public long staleRows() throws SQLException {
        return queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE stale = 1");
    }

    /** Reads one row of a query's result. */
    public interface RowReader {
        void read(ResultSet row) throws SQLException;
    }

    /** Hands every row of {@code sql}, with {@code ${prefix}} replaced, to {@code reader}. */
    public void forEachRow(String sql, RowReader reader) throws SQLException {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql.replace("${prefix}", prefix))) {
            while (rs.next()) {
                reader.read(rs);
            }
        }
    }
}
