package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Content hashing and garbage collection on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlContentTest extends ContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
