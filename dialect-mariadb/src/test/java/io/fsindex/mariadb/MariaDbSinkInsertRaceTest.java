package io.fsindex.mariadb;

import io.fsindex.core.write.SqlFileSinkInsertRaceConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of inserts on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbSinkInsertRaceTest extends SqlFileSinkInsertRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }
}
