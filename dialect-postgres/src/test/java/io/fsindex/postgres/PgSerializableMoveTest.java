package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresMoveTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableMoveTest extends PostgresMoveTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
