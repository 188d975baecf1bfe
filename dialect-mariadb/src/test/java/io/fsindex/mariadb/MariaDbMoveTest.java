package io.fsindex.mariadb;

import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.MoveConformanceTest;
import io.fsindex.testkit.TestDatabase;

/** Moves that keep ids on a real MariaDB 10.11 server (see {@link TestServer}). */
class MariaDbMoveTest extends MoveConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }
}
