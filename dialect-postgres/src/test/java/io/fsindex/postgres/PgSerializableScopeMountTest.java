package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeMountTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableScopeMountTest extends PostgresScopeMountTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
