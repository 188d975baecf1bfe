package io.fsindex.postgres;

import io.fsindex.testkit.DuplicateConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Duplicates by content hash and by fingerprint on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresDuplicateTest extends DuplicateConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
