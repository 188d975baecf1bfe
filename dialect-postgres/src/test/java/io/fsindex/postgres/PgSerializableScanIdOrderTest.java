package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScanIdOrderTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableScanIdOrderTest extends PostgresScanIdOrderTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
