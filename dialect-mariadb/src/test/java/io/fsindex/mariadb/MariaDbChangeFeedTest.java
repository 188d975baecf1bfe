package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The change feed and move suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbChangeFeedTest extends ChangeFeedConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
