package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresKindChangeRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysKindChangeRaceTest extends PostgresKindChangeRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
