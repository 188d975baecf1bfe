package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresConformanceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableConformanceTest extends PostgresConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
