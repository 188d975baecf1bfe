package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresMoveTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysMoveTest extends PostgresMoveTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
