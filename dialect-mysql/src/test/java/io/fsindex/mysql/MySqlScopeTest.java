package io.fsindex.mysql;

import io.fsindex.testkit.ScopeConformanceTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

/** The scoped-scan suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlScopeTest extends ScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
