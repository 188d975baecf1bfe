package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresConcurrentScanTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableConcurrentScanTest extends PostgresConcurrentScanTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
