package io.fsindex.mysql;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.MoveConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Moves that keep ids on a real MySQL 8.0 server (see {@link TestServer}). */
class MySqlMoveTest extends MoveConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }
}
