package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresPropertyTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializablePropertyTest extends PostgresPropertyTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
