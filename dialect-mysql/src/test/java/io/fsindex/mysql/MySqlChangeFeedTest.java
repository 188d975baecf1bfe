package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed and move suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlChangeFeedTest extends ChangeFeedConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
