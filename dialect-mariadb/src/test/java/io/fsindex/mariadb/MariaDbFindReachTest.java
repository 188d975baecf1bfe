package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FindReachConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Finds below the only root, below one of two roots, and their pages, on MariaDB 10.11 (see {@link TestServer}). */
class MariaDbFindReachTest extends FindReachConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
