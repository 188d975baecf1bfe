package io.fsindex.postgres;

import io.fsindex.testkit.ChangeFeedConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed and move suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresChangeFeedTest extends ChangeFeedConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
