package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresContentTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysContentTest extends PostgresContentTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
