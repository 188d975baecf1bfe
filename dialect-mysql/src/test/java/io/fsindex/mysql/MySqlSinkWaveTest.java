package io.fsindex.mysql;

import io.fsindex.core.write.SqlFileSinkWaveConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings of waves and parts on a real MySQL 8 server (see {@link TestServer}). */
class MySqlSinkWaveTest extends SqlFileSinkWaveConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    /** The test server allows LOCAL INFILE, but Connector/J does not until told to (see MySqlLoadingSinkWaveTest). */
    @Override
    protected boolean expectsBulkLoads() {
        return false;
    }
}
