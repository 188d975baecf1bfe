package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysChangeFeedTest extends PostgresChangeFeedTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
