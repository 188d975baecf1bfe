package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScopeProcessConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Stored rules across processes on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbScopeProcessTest extends ScopeProcessConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
