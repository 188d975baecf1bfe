package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysSinkTest extends PostgresSinkTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
