package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FsIndexConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The conformance suite on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlConformanceTest extends FsIndexConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
