package io.fsindex.postgres;

import io.fsindex.testkit.QueryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Find, directory sizes and duplicates on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresQueryTest extends QueryConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
