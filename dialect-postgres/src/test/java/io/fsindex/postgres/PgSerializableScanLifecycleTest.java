package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScanLifecycleTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableScanLifecycleTest extends PostgresScanLifecycleTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
