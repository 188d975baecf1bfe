package io.fsindex.postgres;

import io.fsindex.core.write.SqlFileSinkConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSinkTest extends SqlFileSinkConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position('" + prefix
                + "' in query) > 0";
    }
}
