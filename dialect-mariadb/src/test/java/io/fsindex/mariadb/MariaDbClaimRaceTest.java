package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanClaimRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over claims and listings on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbClaimRaceTest extends ScanClaimRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
