package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemChangingTreeTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysFilesystemChangingTreeTest extends PostgresFilesystemChangingTreeTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
