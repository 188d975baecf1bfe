package io.fsindex.mariadb;

import io.fsindex.core.write.SqlFileSinkSweepConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of sweeps on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbSinkSweepTest extends SqlFileSinkSweepConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }
}
