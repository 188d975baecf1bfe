package io.fsindex.mariadb;

import io.fsindex.core.write.SqlFileSinkWaveConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of waves and parts on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbSinkWaveTest extends SqlFileSinkWaveConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
