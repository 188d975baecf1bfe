package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresClaimRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysClaimRaceTest extends PostgresClaimRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
