package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.SizeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory sizes on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlSizeTest extends SizeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
