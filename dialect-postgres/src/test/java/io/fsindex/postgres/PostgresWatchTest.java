package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchConformanceTest;

/** Watching a tree on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresWatchTest extends WatchConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
