package io.fsindex.core;

import java.sql.SQLException;

/**
 * Rows a bulk load appended did not get consecutive ids from the engine, because another writer's rows took numbers
 * in between, so the scan cannot tell which id each got. The transaction is undone and retried; the load failing
 * has turned the loader off for the rest of the scan, which then inserts instead.
 */
final class LoadNotNumbered extends SQLException {
    private static final long serialVersionUID = 1L;

    LoadNotNumbered() {
        super("the rows a bulk load appended were not numbered consecutively (another writer inserted meanwhile)");
    }
}
