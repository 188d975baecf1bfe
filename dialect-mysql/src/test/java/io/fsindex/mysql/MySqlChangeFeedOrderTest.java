package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed's order and completeness on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlChangeFeedOrderTest extends ChangeFeedOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
