package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/**
 * What the change feed holds on a real MySQL 8.0 server with {@code LOAD DATA LOCAL INFILE} allowed, so that new subtrees go in by the bulk
 * loader, whose rows InnoDB numbers itself (see {@link TestServer#loadingDatabase}).
 */
class MySqlLoadingChangeFeedContentTest extends ChangeFeedContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().loadingDatabase();
    }
}
