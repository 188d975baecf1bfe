package io.fsindex.postgres;

import io.fsindex.core.write.SqlFileSinkSweepConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of sweeps on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSinkSweepTest extends SqlFileSinkSweepConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return PostgresTestServer.lockWaitsQuery(prefix);
    }
}
