package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemPermissionTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableFilesystemPermissionTest extends PostgresFilesystemPermissionTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
