package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanLifecycleConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Live and dead scans on a real server (see {@link TestServer}). */
class MySqlScanLifecycleTest extends ScanLifecycleConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
