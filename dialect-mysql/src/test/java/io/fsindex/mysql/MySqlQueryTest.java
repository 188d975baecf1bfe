package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.QueryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Find, directory sizes and duplicates on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlQueryTest extends QueryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
