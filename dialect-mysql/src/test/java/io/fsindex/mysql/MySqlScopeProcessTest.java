package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScopeProcessConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Stored rules across processes on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlScopeProcessTest extends ScopeProcessConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
