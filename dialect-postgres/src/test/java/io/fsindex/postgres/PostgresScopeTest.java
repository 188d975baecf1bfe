package io.fsindex.postgres;

import io.fsindex.testkit.ScopeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The scoped-scan suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresScopeTest extends ScopeConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
