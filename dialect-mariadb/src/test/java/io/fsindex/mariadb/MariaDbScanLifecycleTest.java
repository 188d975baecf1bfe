package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanLifecycleConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Live and dead scans on a real server (see {@link TestServer}). */
class MariaDbScanLifecycleTest extends ScanLifecycleConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
