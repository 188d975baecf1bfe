package io.fsindex.postgres;

import io.fsindex.core.write.SqlFileSinkInsertRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of inserts on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSinkInsertRaceTest extends SqlFileSinkInsertRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return PostgresTestServer.lockWaitsQuery(prefix);
    }
}
