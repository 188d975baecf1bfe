package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresStoreContractTest}'s suite with plain foreign keys instead of statement triggers. */
class PgPlainKeysStoreContractTest extends PostgresStoreContractTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
