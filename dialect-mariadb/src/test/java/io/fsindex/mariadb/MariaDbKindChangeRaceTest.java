package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanKindChangeRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races around entries that change kind on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbKindChangeRaceTest extends ScanKindChangeRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
