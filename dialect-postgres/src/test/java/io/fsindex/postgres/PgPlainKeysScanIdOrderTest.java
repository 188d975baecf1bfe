package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScanIdOrderTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysScanIdOrderTest extends PostgresScanIdOrderTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
