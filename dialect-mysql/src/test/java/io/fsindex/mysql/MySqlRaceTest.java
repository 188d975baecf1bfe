package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic scan races on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlRaceTest extends ScanRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
