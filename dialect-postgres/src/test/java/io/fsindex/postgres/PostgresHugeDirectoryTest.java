package io.fsindex.postgres;

import io.fsindex.testkit.HugeDirectoryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** A huge directory changing while it is listed, on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresHugeDirectoryTest extends HugeDirectoryConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
