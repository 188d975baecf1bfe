package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** What the change feed holds on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbChangeFeedContentTest extends ChangeFeedContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
