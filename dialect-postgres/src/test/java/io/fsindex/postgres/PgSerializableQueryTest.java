package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresQueryTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableQueryTest extends PostgresQueryTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
