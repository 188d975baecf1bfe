package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Content hashing and garbage collection on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbContentTest extends ContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
