package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchConformanceTest;

/** Watching a tree on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlWatchTest extends WatchConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
