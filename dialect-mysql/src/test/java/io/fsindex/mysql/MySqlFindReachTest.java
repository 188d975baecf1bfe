package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FindReachConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Finds below the only root, below one of two roots, and their pages, on MySQL 8.0 (see {@link TestServer}). */
class MySqlFindReachTest extends FindReachConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
