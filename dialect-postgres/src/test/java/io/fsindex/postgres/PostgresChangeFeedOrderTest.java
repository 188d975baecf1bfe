package io.fsindex.postgres;

import io.fsindex.testkit.ChangeFeedOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed's order and completeness on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresChangeFeedOrderTest extends ChangeFeedOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
