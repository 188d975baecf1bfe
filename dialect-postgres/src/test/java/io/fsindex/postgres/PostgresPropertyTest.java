package io.fsindex.postgres;

import io.fsindex.testkit.ScanPropertyConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The randomized interleavings of scans and changes on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresPropertyTest extends ScanPropertyConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
