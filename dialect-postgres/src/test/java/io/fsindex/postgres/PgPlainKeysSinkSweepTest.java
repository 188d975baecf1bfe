package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkSweepTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysSinkSweepTest extends PostgresSinkSweepTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
