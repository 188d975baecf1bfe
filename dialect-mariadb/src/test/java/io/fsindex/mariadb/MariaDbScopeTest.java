package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScopeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The scoped-scan suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbScopeTest extends ScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
