package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresConformanceTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysConformanceTest extends PostgresConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
