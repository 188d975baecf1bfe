package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableScopeTest extends PostgresScopeTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
