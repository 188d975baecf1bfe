package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresStoreContractTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableStoreContractTest extends PostgresStoreContractTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
