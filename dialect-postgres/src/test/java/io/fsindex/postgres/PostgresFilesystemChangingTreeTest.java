package io.fsindex.postgres;

import io.fsindex.testkit.FilesystemChangingTreeConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The shared changing-tree suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresFilesystemChangingTreeTest extends FilesystemChangingTreeConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
