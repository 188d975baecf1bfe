package io.fsindex.postgres;

import io.fsindex.testkit.FilesystemEntryConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The shared filesystem entries suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresFilesystemEntryTest extends FilesystemEntryConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
