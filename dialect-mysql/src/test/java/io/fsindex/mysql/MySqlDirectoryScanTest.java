package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.DirectoryScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory scans and their races on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlDirectoryScanTest extends DirectoryScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
