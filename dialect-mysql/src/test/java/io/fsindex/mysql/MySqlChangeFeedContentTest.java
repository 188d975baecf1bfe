package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** What the change feed holds on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlChangeFeedContentTest extends ChangeFeedContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
