package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ConcurrentScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The many scanning threads and processes on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlConcurrentScanTest extends ConcurrentScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
