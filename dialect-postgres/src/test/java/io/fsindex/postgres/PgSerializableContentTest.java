package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresContentTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableContentTest extends PostgresContentTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
