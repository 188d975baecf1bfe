package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanRootRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over partial scans' trunks and roots on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbRootRaceTest extends ScanRootRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
