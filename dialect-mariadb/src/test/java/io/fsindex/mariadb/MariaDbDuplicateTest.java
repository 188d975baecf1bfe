package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.DuplicateConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Duplicates by content hash and by fingerprint on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbDuplicateTest extends DuplicateConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
