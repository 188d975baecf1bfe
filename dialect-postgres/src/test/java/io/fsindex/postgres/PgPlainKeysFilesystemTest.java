package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresFilesystemTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysFilesystemTest extends PostgresFilesystemTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
