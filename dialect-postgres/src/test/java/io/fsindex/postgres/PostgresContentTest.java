package io.fsindex.postgres;

import io.fsindex.testkit.ContentConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Content hashing and garbage collection on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresContentTest extends ContentConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
