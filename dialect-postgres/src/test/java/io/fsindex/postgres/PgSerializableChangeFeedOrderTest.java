package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedOrderTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableChangeFeedOrderTest extends PostgresChangeFeedOrderTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
