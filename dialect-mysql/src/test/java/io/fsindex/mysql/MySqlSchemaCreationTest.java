package io.fsindex.mysql;

import io.fsindex.innodb.InnoDbDialect;
import io.fsindex.innodb.InnoDbSchemaCreationTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;

class MySqlSchemaCreationTest extends InnoDbSchemaCreationTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected InnoDbDialect dialect() {
        return new MySqlDialect();
    }
}
