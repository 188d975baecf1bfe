package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.DirectoryScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory scans and their races on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbDirectoryScanTest extends DirectoryScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
