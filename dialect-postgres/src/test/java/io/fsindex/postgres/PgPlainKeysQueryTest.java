package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresQueryTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysQueryTest extends PostgresQueryTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
