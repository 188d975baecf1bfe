package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanRootRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over partial scans' trunks and roots on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlRootRaceTest extends ScanRootRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
