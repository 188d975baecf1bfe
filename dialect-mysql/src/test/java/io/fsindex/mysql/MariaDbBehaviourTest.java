package io.fsindex.mysql;

import io.fsindex.core.spi.Dialect;

/** InnoDB's hazards on a real MariaDB 10.11 server. */
class MariaDbBehaviourTest extends InnoDbBehaviourTest {
    @Override
    TestServer server() {
        return TestServer.mariadb();
    }

    @Override
    Dialect dialect() {
        return new MariaDbDialect();
    }
}
