package io.fsindex.core.feed;

import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.DirectoryMovedMeanwhile;
import io.fsindex.core.internal.Statements;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Watches the feed for directories other scans move while this scan runs. A scan records the changes of a listing at
 * the path it listed the directory at; if another scan has moved the directory (or one above it) since, that path is
 * stale, and a consumer replaying the feed would put the entries there. Checked each time a transaction of this scan
 * holds the feed's head, when no other scan can commit a move before it.
 */
final class OtherScansMoves {
    private final ConnectionStatements sql;
    private final Statements st;
    private final long scan;
    /** The feed's end up to which other scans' moves have been looked for. */
    private long seenUpTo;
    private boolean seen;

    OtherScansMoves(ConnectionStatements sql, Statements st, long scan) throws SQLException {
        this.sql = sql;
        this.st = st;
        this.scan = scan;
        try (ResultSet rs = sql.q(st.readFeed).statement.executeQuery()) {
            seenUpTo = rs.next() ? rs.getLong(1) : 0;
        }
    }

    /**
     * With the feed's head held at {@code end}: throws {@link DirectoryMovedMeanwhile} if another scan moved a
     * directory since this scan last looked, so that the transaction is retried; from then on {@link #seen} is true.
     */
    void checkUpTo(long end) throws SQLException {
        if (end <= seenUpTo) {
            return;
        }
        boolean moved;
        try (ResultSet rs = sql.q(st.directoryMovedBetween).set("from", seenUpTo).set("to", end).set("scan", scan)
                .statement.executeQuery()) {
            moved = rs.next();
        }
        seenUpTo = end;
        if (moved) {
            seen = true;
            throw new DirectoryMovedMeanwhile();
        }
    }

    /** This scan committed the changes up to {@code end}: they are its own, none to look at again. */
    void committedUpTo(long end) {
        seenUpTo = Math.max(seenUpTo, end);
    }

    /**
     * True once another scan has been seen moving a directory during this scan: every listing's directory must then be
     * checked against the index before its changes are recorded.
     */
    boolean seen() {
        return seen;
    }
}
