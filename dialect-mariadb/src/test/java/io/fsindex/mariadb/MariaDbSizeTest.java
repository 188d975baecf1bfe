package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.SizeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory sizes on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbSizeTest extends SizeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
