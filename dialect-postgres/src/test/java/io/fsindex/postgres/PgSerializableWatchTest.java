package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresWatchTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableWatchTest extends PostgresWatchTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
