package io.fsindex.postgres;

import io.fsindex.testkit.DirectoryScanConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Directory scans and their races on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresDirectoryScanTest extends DirectoryScanConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
