package io.fsindex.mysql;

import io.fsindex.core.write.SqlFileSinkSweepConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of sweeps on a real MySQL 8 server (see {@link TestServer}). */
class MySqlSinkSweepTest extends SqlFileSinkSweepConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }
}
