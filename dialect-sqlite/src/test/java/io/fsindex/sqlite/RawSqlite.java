package io.fsindex.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteDataSource;

/** Plain JDBC on an SQLite file, with none of fsindex's settings, to look at what fsindex left there. */
final class RawSqlite {
    private RawSqlite() {
    }

    /** A connection exactly as the driver opens it: no foreign keys, the driver's own busy timeout. */
    static Connection connect(String url) throws SQLException {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl(url);
        return ds.getConnection();
    }

    /** The first column of the first row of {@code sql}, as a string (null if there is no row). */
    static String queryString(String url, String sql) throws SQLException {
        try (Connection c = connect(url); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static long queryLong(String url, String sql) throws SQLException {
        String v = queryString(url, sql);
        return v == null ? 0 : Long.parseLong(v);
    }

    /** Rows whose parent row is gone: what a sweep leaves behind when the cascade did not run. */
    static long orphans(String url, String prefix) throws SQLException {
        return queryLong(url, "SELECT COUNT(*) FROM " + prefix + "files c WHERE c.parent IS NOT NULL"
                + " AND NOT EXISTS (SELECT 1 FROM " + prefix + "files p WHERE p.id = c.parent)");
    }

    static void execute(String url, String... sql) throws SQLException {
        try (Connection c = connect(url); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }
}
