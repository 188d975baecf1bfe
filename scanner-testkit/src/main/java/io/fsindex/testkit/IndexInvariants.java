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
 * under a non-directory (invisible to {@code children()} walks), orphans, and stale marks left behind.
 */
final class IndexInvariants {
    private final TestDatabase database;
    private final String files;

    IndexInvariants(TestDatabase database, String tablePrefix) {
        this.database = database;
        this.files = tablePrefix + "files";
    }

    /** Rows whose parent row is not a directory, each as "parentName parentKind childName". */
    List<String> childrenOfNonDirectories() {
        return strings("SELECT p.name, p.kind, c.name FROM " + files + " c JOIN " + files + " p ON c.parent = p.id"
                + " WHERE p.kind <> 'DIRECTORY' ORDER BY c.id", 3);
    }

    /**
     * Rows older than their parent's listing (scan_id < parent.listed_by), each as "parentName listedBy childName
     * scanId". There must be none: a scan that claims a directory takes every older child over in the same
     * transaction, and a row is written under a directory only by a scan at least as new as its listing.
     */
    List<String> rowsOlderThanTheirParentsListing() {
        return strings("SELECT p.name, p.listed_by, c.name, c.scan_id FROM " + files + " c JOIN " + files + " p"
                + " ON c.parent = p.id WHERE c.scan_id < p.listed_by ORDER BY c.id", 4);
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
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
             Statement s = c.createStatement();
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
}
