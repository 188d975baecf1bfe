package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresDuplicateTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysDuplicateTest extends PostgresDuplicateTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
