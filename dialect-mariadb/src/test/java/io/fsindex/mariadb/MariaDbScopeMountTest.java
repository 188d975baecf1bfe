package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScopeMountConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The mount-point suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbScopeMountTest extends ScopeMountConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
