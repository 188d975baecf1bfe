package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FilesystemEntryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The filesystem entries suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlFilesystemEntryTest extends FilesystemEntryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
