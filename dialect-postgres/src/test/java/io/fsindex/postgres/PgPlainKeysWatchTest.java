package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresWatchTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysWatchTest extends PostgresWatchTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
