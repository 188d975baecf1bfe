package io.fsindex.postgres;

import io.fsindex.testkit.FsIndexConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The shared conformance suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresConformanceTest extends FsIndexConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
