package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeProcessTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableScopeProcessTest extends PostgresScopeProcessTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
