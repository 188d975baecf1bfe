package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeProcessTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysScopeProcessTest extends PostgresScopeProcessTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
