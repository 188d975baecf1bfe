package io.fsindex.postgres;

import io.fsindex.testkit.FilesystemPermissionConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** The shared filesystem permissions suite on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresFilesystemPermissionTest extends FilesystemPermissionConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
