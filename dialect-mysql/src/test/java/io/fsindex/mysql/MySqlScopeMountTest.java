package io.fsindex.mysql;

import io.fsindex.testkit.ScopeMountConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The mount-point suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlScopeMountTest extends ScopeMountConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
