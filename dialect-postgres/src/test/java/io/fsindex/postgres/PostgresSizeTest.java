package io.fsindex.postgres;

import io.fsindex.testkit.SizeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory sizes on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresSizeTest extends SizeConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
