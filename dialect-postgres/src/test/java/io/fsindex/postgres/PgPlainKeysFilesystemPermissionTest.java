package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemPermissionTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysFilesystemPermissionTest extends PostgresFilesystemPermissionTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
