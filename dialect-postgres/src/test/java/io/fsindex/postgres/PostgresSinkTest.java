package io.fsindex.postgres;

import io.fsindex.core.SqlFileSinkConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSinkTest extends SqlFileSinkConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
