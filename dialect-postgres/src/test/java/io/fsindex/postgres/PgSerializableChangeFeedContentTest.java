package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedContentTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableChangeFeedContentTest extends PostgresChangeFeedContentTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
