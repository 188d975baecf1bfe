package io.fsindex.postgres;

import io.fsindex.testkit.FilesystemConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The shared filesystem suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresFilesystemTest extends FilesystemConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
