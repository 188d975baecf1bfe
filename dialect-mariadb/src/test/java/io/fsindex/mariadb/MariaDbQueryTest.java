package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.QueryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Find, directory sizes and duplicates on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbQueryTest extends QueryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
