package io.fsindex.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an index's file table directly (plain, portable SQL) to check what the public API cannot show: rows hanging
 * under a non-directory (invisible to {@code children()} walks), orphans, and stale marks left behind. Its checks
 * share one connection, opened by the first and held until {@link #close}: a property try checks after every step,
 * and a new connection per check (a server session, or SQLite parsing the schema again) was most of its time.
 */
final class IndexInvariants implements AutoCloseable {
    private final TestDatabase database;
    private final String files;
    private final String scans;
    private Connection connection;

    IndexInvariants(TestDatabase database, String tablePrefix) {
        this.database = database;
        this.files = tablePrefix + "files";
        this.scans = tablePrefix + "scans";
    }

    /** Rows whose parent row is not a directory, each as "parentName parentKind childName". */
    List<String> childrenOfNonDirectories() {
        return strings("SELECT p.name, p.kind, c.name FROM " + files + " c JOIN " + files + " p ON c.parent = p.id"
                + " WHERE p.kind <> 'DIRECTORY' ORDER BY c.id", 3);
    }

    /**
     * Stale rows whose mark belongs to a scan that is not running, each as "name scanId state". There must be none: a
     * completed scan sweeps every row it marked and a failed or cancelled one takes its marks back. (The protocol no
     * longer gives every row under a listed directory that listing's scan_id: an unchanged row keeps the scan_id of
     * the scan that last changed it, so "scan_id >= parent.listed_by" is not an invariant any more.)
     */
    List<String> staleRowsOfScansNotRunning() {
        return strings("SELECT f.name, f.scan_id, s.state FROM " + files + " f JOIN " + scans + " s ON s.id = f.scan_id"
                + " WHERE f.stale = 1 AND s.state <> 'RUNNING' ORDER BY f.id", 3);
    }

    /** One row of the file table as stored, for checks that need what the public API does not show. */
    record RawRow(long id, long parent, String name, String kind, long size, long mtime, String linkTarget,
                  long scanId, long listedBy, boolean stale) {
    }

    /** Every row of the file table that is in the index (orphans, kept only for move detection, are not). */
    List<RawRow> rows() {
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery("SELECT id, COALESCE(parent, 0), name, kind, size, mtime, link_target,"
                     + " scan_id, listed_by, stale FROM " + files + " WHERE gone_at IS NULL")) {
            List<RawRow> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new RawRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                        rs.getLong(6), rs.getString(7), rs.getLong(8), rs.getLong(9), rs.getInt(10) != 0));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + files + ": " + e.getMessage(), e);
        }
    }

    /** Rows whose parent id names no row (impossible while the foreign key holds). */
    List<String> orphans() {
        return strings("SELECT c.name FROM " + files + " c WHERE c.parent IS NOT NULL AND NOT EXISTS"
                + " (SELECT 1 FROM " + files + " p WHERE p.id = c.parent) ORDER BY c.id", 1);
    }

    /** Rows still marked stale, with the scan that owns the mark. */
    List<String> staleRows() {
        return strings("SELECT name, scan_id FROM " + files + " WHERE stale = 1 ORDER BY id", 2);
    }

    /** Every row's id with its scan_id and listed_by, which the protocol only ever raises. */
    Map<Long, long[]> versions() {
        Map<Long, long[]> out = new HashMap<>();
        for (String row : strings("SELECT id, scan_id, listed_by FROM " + files, 3)) {
            String[] f = row.split(" ");
            out.put(Long.parseLong(f[0]), new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
        }
        return out;
    }

    /** The largest row id in the table, 0 if it is empty. */
    long maxId() {
        List<String> max = strings("SELECT COALESCE(MAX(id), 0) FROM " + files, 1);
        return Long.parseLong(max.get(0));
    }

    private List<String> strings(String sql, int columns) {
        try (Statement s = connection().createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getString(i));
                }
                out.add(String.join(" ", row));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + files + ": " + e.getMessage(), e);
        }
    }

    /** The checks' connection, in auto-commit mode so that each check reads what is committed when it runs. */
    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
        }
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot close the connection to " + files + ": " + e.getMessage(), e);
            } finally {
                connection = null;
            }
        }
    }
}
