package io.fsindex.mysql;

import io.fsindex.core.write.SqlFileSinkInsertRaceConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of inserts on a real MySQL 8 server (see {@link TestServer}). */
class MySqlSinkInsertRaceTest extends SqlFileSinkInsertRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }
}
