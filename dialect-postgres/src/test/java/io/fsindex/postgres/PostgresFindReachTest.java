package io.fsindex.postgres;

import io.fsindex.testkit.FindReachConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Finds below the only root, below one of two roots, and their pages, on PostgreSQL. */
class PostgresFindReachTest extends FindReachConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
