package io.fsindex.mariadb;

import io.fsindex.innodb.InnoDbDialect;
import io.fsindex.innodb.InnoDbSchemaCreationTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

class MariaDbSchemaCreationTest extends InnoDbSchemaCreationTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mariadb().database();
    }

    @Override
    protected InnoDbDialect dialect() {
        return new MariaDbDialect();
    }
}
