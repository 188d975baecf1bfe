package io.fsindex.postgres;

import io.fsindex.testkit.ScanSweepRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over sweeps on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSweepRaceTest extends ScanSweepRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
