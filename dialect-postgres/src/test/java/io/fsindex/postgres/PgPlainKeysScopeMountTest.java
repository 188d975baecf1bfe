package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScopeMountTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysScopeMountTest extends PostgresScopeMountTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
