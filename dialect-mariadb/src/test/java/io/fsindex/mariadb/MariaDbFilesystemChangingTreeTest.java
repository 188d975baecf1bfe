package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemChangingTreeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The changing-tree suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbFilesystemChangingTreeTest extends FilesystemChangingTreeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
