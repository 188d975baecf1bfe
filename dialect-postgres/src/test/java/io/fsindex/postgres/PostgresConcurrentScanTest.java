package io.fsindex.postgres;

import io.fsindex.testkit.ConcurrentScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Many scanning threads and processes on one real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresConcurrentScanTest extends ConcurrentScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
