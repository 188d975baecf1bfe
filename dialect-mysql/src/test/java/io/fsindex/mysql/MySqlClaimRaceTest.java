package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanClaimRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races over claims and listings on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlClaimRaceTest extends ScanClaimRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
