package io.fsindex.core.scan;

import io.fsindex.core.internal.TableNames;
import java.sql.Connection;
import java.sql.SQLException;

/** Takes scan ids from the counter row exactly as starting a scan does, for tests that write scans rows by JDBC. */
public final class ScanIds {
    private ScanIds() {
    }

    /**
     * The next scan id of the index whose tables start with {@code prefix}, taken on {@code c}; inside an open
     * transaction the counter row stays locked until it ends, as for a starting scan.
     */
    public static long next(Connection c, String prefix) throws SQLException {
        return new OrderedScanIds(new TableNames(prefix)).next(c);
    }
}
