package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSweepRaceTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableSweepRaceTest extends PostgresSweepRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
