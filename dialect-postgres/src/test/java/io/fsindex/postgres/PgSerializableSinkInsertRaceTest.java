package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkInsertRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableSinkInsertRaceTest extends PostgresSinkInsertRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
