package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemEntryTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysFilesystemEntryTest extends PostgresFilesystemEntryTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
