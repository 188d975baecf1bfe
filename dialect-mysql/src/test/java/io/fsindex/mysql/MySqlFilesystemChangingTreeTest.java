package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemChangingTreeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The changing-tree suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlFilesystemChangingTreeTest extends FilesystemChangingTreeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
