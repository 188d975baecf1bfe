package io.fsindex.postgres;

import io.fsindex.testkit.ScanRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic scan races on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresRaceTest extends ScanRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
