package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableSinkTest extends PostgresSinkTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
