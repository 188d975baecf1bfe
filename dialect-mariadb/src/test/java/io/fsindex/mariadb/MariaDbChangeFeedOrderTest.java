package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed's order and completeness on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbChangeFeedOrderTest extends ChangeFeedOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
