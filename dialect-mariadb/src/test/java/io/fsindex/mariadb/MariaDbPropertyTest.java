package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanPropertyConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The randomized interleavings of scans and changes on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbPropertyTest extends ScanPropertyConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
