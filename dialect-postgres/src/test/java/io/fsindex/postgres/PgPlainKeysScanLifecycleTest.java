package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresScanLifecycleTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysScanLifecycleTest extends PostgresScanLifecycleTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
