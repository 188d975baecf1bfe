package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.ScanIdOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Scan ids in start order on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlScanIdOrderTest extends ScanIdOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    /**
     * InnoDB keeps one AUTO_INCREMENT counter per table in the server and takes each value as the insert runs, so a
     * later start always gets a larger id; only engines that hand each node a range of its own (TiDB) do otherwise.
     */
    @Override
    protected boolean cacheEngineScanIds(RawIndex raw) {
        return false;
    }
}
