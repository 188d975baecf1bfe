package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresRootRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysRootRaceTest extends PostgresRootRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
