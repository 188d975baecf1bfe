package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkInsertRaceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysSinkInsertRaceTest extends PostgresSinkInsertRaceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
