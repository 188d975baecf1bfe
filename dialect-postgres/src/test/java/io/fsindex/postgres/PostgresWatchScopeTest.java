package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchScopeConformanceTest;

/** What a watch registers under the stored rules, on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresWatchScopeTest extends WatchScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
