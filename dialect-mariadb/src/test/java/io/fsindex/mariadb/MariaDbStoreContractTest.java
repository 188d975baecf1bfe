package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.StoreContractConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The store contract on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbStoreContractTest extends StoreContractConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
