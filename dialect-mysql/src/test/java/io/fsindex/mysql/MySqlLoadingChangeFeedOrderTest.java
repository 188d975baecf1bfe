package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.ChangeFeedOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;

/**
 * The change feed's order and completeness on a real MySQL 8.0 server with {@code LOAD DATA LOCAL INFILE} allowed, so that new subtrees go in by the bulk
 * loader, whose rows InnoDB numbers itself (see {@link TestServer#loadingDatabase}).
 */
class MySqlLoadingChangeFeedOrderTest extends ChangeFeedOrderConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().loadingDatabase();
    }
}
