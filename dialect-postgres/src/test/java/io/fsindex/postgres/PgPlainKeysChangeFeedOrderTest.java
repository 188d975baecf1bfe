package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedOrderTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysChangeFeedOrderTest extends PostgresChangeFeedOrderTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
