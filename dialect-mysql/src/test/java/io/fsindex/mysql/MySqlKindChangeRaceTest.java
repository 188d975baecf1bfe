package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ScanKindChangeRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The deterministic races around entries that change kind on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlKindChangeRaceTest extends ScanKindChangeRaceConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
