package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableRaceTest extends PostgresRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
