package io.fsindex.postgres;

import io.fsindex.testkit.MoveConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Moves that keep ids on a real PostgreSQL server (see {@link PostgresTestServer}). */
class PostgresMoveTest extends MoveConformanceTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }
}
