package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresConcurrentScanTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysConcurrentScanTest extends PostgresConcurrentScanTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
