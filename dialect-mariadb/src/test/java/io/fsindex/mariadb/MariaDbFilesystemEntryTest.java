package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemEntryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem entries suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbFilesystemEntryTest extends FilesystemEntryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
