package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemPermissionConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem permissions suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbFilesystemPermissionTest extends FilesystemPermissionConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
