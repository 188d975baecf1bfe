package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysRaceTest extends PostgresRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
