package io.fsindex.postgres;

import io.fsindex.testkit.ChangeFeedContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** What the change feed holds on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresChangeFeedContentTest extends ChangeFeedContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
