package io.fsindex.postgres;

import io.fsindex.testkit.StoreContractConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The store contract on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresStoreContractTest extends StoreContractConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
