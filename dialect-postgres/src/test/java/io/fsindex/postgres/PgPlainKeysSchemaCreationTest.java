package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresSchemaCreationTest} with plain foreign keys instead of statement triggers. */
class PgPlainKeysSchemaCreationTest extends PostgresSchemaCreationTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.plainForeignKeys();
    }
}
