package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemEntryTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableFilesystemEntryTest extends PostgresFilesystemEntryTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
