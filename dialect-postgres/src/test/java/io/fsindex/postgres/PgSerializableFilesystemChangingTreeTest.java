package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemChangingTreeTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableFilesystemChangingTreeTest extends PostgresFilesystemChangingTreeTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
