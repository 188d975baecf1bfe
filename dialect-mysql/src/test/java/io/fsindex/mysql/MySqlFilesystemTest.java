package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlFilesystemTest extends FilesystemConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
