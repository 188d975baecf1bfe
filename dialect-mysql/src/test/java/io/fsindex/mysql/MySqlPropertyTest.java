package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanPropertyConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The randomized interleavings of scans and changes on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlPropertyTest extends ScanPropertyConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
