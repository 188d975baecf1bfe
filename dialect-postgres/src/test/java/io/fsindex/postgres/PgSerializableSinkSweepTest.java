package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkSweepTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableSinkSweepTest extends PostgresSinkSweepTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
