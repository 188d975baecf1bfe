package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresDirectoryScanTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableDirectoryScanTest extends PostgresDirectoryScanTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
