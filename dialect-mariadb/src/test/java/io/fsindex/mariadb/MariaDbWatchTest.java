package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchConformanceTest;

/** Watching a tree on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbWatchTest extends WatchConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
