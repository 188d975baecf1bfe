package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresClaimRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableClaimRaceTest extends PostgresClaimRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
