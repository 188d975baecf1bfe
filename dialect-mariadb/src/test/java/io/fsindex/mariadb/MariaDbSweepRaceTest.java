package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanSweepRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over sweeps on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbSweepRaceTest extends ScanSweepRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
