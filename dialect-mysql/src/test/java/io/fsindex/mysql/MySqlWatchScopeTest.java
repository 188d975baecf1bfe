package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchScopeConformanceTest;

/** What a watch registers under the stored rules, on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlWatchScopeTest extends WatchScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
