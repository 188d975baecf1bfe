package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSinkWaveTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysSinkWaveTest extends PostgresSinkWaveTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
