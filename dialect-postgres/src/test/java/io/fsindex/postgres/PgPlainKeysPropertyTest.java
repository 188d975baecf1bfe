package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresPropertyTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysPropertyTest extends PostgresPropertyTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
