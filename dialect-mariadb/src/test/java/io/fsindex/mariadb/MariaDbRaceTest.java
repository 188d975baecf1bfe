package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic scan races on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbRaceTest extends ScanRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
