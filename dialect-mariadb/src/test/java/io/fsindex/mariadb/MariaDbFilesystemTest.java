package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbFilesystemTest extends FilesystemConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
