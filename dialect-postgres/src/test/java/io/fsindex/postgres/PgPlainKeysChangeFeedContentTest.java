package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedContentTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysChangeFeedContentTest extends PostgresChangeFeedContentTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
