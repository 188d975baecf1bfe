package io.fsindex.postgres;

import io.fsindex.testkit.ScanClaimRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over claims and listings on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresClaimRaceTest extends ScanClaimRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
