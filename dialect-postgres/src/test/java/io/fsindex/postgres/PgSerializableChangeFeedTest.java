package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;

/** {@link PostgresChangeFeedTest}'s suite with every write transaction at SERIALIZABLE. */
class PgSerializableChangeFeedTest extends PostgresChangeFeedTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.serializable();
    }
}
