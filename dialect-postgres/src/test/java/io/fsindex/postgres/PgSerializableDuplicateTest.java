package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresDuplicateTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableDuplicateTest extends PostgresDuplicateTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
