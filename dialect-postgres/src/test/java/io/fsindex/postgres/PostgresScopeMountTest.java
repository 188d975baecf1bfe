package io.fsindex.postgres;

import io.fsindex.testkit.ScopeMountConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The mount-point suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresScopeMountTest extends ScopeMountConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
