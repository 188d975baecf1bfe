package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ConcurrentScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The many scanning threads and processes on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbConcurrentScanTest extends ConcurrentScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
