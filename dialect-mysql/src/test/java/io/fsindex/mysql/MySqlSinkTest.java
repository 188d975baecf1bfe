package io.fsindex.mysql;

import io.fsindex.core.write.SqlFileSinkConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The staged sink interleavings on a real MySQL 8 server (see {@link TestServer}). */
class MySqlSinkTest extends SqlFileSinkConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected String lockWaitsQuery(String prefix) {
        return TestServer.lockWaitsQuery(prefix);
    }

    /** The test server allows LOCAL INFILE, but Connector/J does not until told to (see MySqlLoadingSinkTest). */
    @Override
    protected boolean expectsBulkLoads() {
        return false;
    }
}
