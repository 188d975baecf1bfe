package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.DuplicateConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Duplicates by content hash and by fingerprint on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlDuplicateTest extends DuplicateConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
