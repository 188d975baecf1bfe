package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableFilesystemTest extends PostgresFilesystemTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
