package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysScopeTest extends PostgresScopeTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
