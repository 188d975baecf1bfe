package io.fsindex.mysql;

import io.fsindex.core.spi.Dialect;

/** InnoDB's hazards on a real MySQL 8.0 server. */
class MySqlBehaviourTest extends InnoDbBehaviourTest {
    @Override
    TestServer server() {
        return TestServer.mysql();
    }

    @Override
    Dialect dialect() {
        return new MySqlDialect();
    }
}
