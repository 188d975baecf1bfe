package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanSweepRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over sweeps on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlSweepRaceTest extends ScanSweepRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
