package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchScopeConformanceTest;

/** What a watch registers under the stored rules, on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbWatchScopeTest extends WatchScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
