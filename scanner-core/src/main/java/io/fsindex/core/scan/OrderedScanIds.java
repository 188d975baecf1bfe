package io.fsindex.core.scan;

import io.fsindex.api.SchemaException;
import io.fsindex.core.internal.TableNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Takes new scan ids from the counter row ({@code <prefix>scan_ids}) inside the transaction that inserts the scan's
 * row, so that ids grow in the order scans start whatever the engine's own allocator does.
 *
 * <p>The first statement moves the counter, which locks its row until the transaction commits: the next scan's start
 * waits for that commit, then moves the counter on from the committed value (every engine fsindex supports
 * re-reads a row it waited for, and SQLite serialises writers anyway). A scan whose start returned therefore always
 * has a smaller id than any scan that starts after it, on any number of connections, processes or nodes. The counter
 * is also raised past the largest id in the scans table, so an index whose scans were numbered by the engine's
 * allocator before ({@link io.fsindex.core.ScanIdAllocation#NATIVE}) never gets an id twice.
 */
final class OrderedScanIds {
    private final String counter;
    private final String scans;
    private final String advance;
    private final String read;
    private final String largestScan;
    private final String raise;

    OrderedScanIds(TableNames t) {
        this.counter = t.scanIdsName();
        this.scans = t.scansName();
        this.advance = "UPDATE " + counter + " SET last_id = last_id + 1 WHERE id = 1";
        this.read = "SELECT last_id FROM " + counter + " WHERE id = 1";
        this.largestScan = "SELECT MAX(id) FROM " + t.scansName();
        this.raise = "UPDATE " + counter + " SET last_id = ? WHERE id = 1";
    }

    /** The next id, taken on {@code c} inside its open write transaction; the counter stays locked until it ends. */
    long next(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(advance)) {
            if (s.executeUpdate() != 1) {
                throw new SchemaException("the scan id counter row is missing from " + counter + " (schema version 6"
                        + " inserts it); put it back with: INSERT INTO " + counter + " (id, last_id) SELECT 1,"
                        + " COALESCE(MAX(id), 0) FROM " + scans);
            }
        }
        long id = single(c, read);
        long largest = single(c, largestScan);
        if (largest >= id) {
            id = largest + 1;
            try (PreparedStatement s = c.prepareStatement(raise)) {
                s.setLong(1, id);
                s.executeUpdate();
            }
        }
        return id;
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
