package io.fsindex.mysql;

import io.fsindex.core.write.SqlFileSinkSweepConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/**
 * The staged sink interleavings of sweeps on a real MySQL 8.0 server with {@code LOAD DATA LOCAL INFILE} allowed, so that new subtrees go in by the bulk
 * loader, whose rows InnoDB numbers itself (see {@link TestServer#loadingDatabase}).
 */
class MySqlLoadingSinkSweepTest extends SqlFileSinkSweepConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().loadingDatabase();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }
}
