package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.StoreContractConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The store contract on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlStoreContractTest extends StoreContractConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
