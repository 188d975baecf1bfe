package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanPropertyConformanceTest;
import io.fsindex.testkit.TestDatabase;

/**
 * The randomized interleavings of scans and changes on a real MySQL 8.0 server with {@code LOAD DATA LOCAL INFILE} allowed, so that new subtrees go in by the bulk
 * loader, whose rows InnoDB numbers itself (see {@link TestServer#loadingDatabase}).
 */
class MySqlLoadingPropertyTest extends ScanPropertyConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().loadingDatabase();
    }
}
