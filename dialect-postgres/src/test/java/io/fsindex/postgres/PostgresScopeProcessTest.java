package io.fsindex.postgres;

import io.fsindex.testkit.ScopeProcessConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Stored rules across processes on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresScopeProcessTest extends ScopeProcessConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
