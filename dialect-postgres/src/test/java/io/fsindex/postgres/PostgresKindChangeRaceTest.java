package io.fsindex.postgres;

import io.fsindex.testkit.ScanKindChangeRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races around entries that change kind on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresKindChangeRaceTest extends ScanKindChangeRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
