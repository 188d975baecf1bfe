package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresKindChangeRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableKindChangeRaceTest extends PostgresKindChangeRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
