package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.HugeDirectoryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** A huge directory changing while it is listed, on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbHugeDirectoryTest extends HugeDirectoryConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
