package io.fsindex.postgres;

import io.fsindex.core.write.SqlFileSinkWaveConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of waves and parts on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSinkWaveTest extends SqlFileSinkWaveConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
