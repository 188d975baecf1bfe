package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.FsIndexConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The conformance suite on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbConformanceTest extends FsIndexConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
