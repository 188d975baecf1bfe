package io.fsindex.core.internal;

import java.sql.SQLException;

/**
 * A write transaction read, to write it, a row another transaction inserted after this one began. The scan tells the
 * rows its transaction inserted by their ids being above the largest id when the transaction began (its floor), so a
 * row it writes above the floor that it did not insert would be recorded as added by it too. The transaction is
 * undone and retried, and the retry's floor is above that row.
 */
public final class RowsAboveFloor extends SQLException {
    private static final long serialVersionUID = 1L;

    public RowsAboveFloor(long id) {
        super("row " + id + " was inserted by another transaction after this one began; the transaction is retried");
    }
}
