package io.fsindex.postgres;

import io.fsindex.testkit.ScanLifecycleConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Live and dead scans on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresScanLifecycleTest extends ScanLifecycleConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
