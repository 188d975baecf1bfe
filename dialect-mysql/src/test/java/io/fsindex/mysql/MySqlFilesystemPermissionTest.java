package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemPermissionConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem permissions suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlFilesystemPermissionTest extends FilesystemPermissionConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
