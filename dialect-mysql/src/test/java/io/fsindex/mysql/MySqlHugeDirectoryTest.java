package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.HugeDirectoryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** A huge directory changing while it is listed, on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlHugeDirectoryTest extends HugeDirectoryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
