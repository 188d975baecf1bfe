package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresRootRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableRootRaceTest extends PostgresRootRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
