package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkWaveTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableSinkWaveTest extends PostgresSinkWaveTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
