package io.fsindex.postgres;

import io.fsindex.testkit.ScanRootRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over partial scans' trunks and roots on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresRootRaceTest extends ScanRootRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
