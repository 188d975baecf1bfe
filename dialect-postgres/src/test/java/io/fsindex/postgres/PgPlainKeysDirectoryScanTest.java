package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresDirectoryScanTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysDirectoryScanTest extends PostgresDirectoryScanTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
