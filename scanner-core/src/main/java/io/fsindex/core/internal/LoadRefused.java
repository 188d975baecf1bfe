package io.fsindex.core.internal;

import java.sql.SQLException;

/**
 * A bulk load could not be used for a transaction: the rows it appended did not get consecutive ids (another writer's
 * rows took numbers in between, so the scan cannot tell which id each got), or the engine refused a row (a name a
 * newer scan put below a directory this scan inserted, which a load cannot leave alone as an insert does). The
 * transaction is undone and retried; the load failing has turned the loader off for the rest of the scan, which then
 * inserts instead.
 */
public final class LoadRefused extends SQLException {
    private static final long serialVersionUID = 1L;

    /** The loaded rows were not numbered consecutively. */
    public LoadRefused() {
        super("the rows a bulk load appended were not numbered consecutively (another writer inserted meanwhile)");
    }

    /** The load failed with {@code cause}, which a retry with inserts may not meet. */
    public LoadRefused(SQLException cause) {
        super("the bulk load failed, so the transaction is retried with inserts: " + cause.getMessage(),
                cause.getSQLState(), cause.getErrorCode(), cause);
    }
}
