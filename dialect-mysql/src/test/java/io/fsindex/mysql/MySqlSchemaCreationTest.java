package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.SchemaScripts;
import io.fsindex.innodb.InnoDbCatalog;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.SchemaCreationConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tables created at once equal those every version's script leaves, on a real server (see {@link TestServer}). */
class MySqlSchemaCreationTest extends SchemaCreationConformanceTest {
    @Override
    protected TestDatabase database() {
        return TestServer.mysql().database();
    }

    @Override
    protected List<String> engineCatalog(Connection c, String prefix) throws SQLException {
        return InnoDbCatalog.of(c, prefix);
    }

    /** InnoDB's DDL is slow, so a new index's tables are created at once: a new schema version needs its own script. */
    @Test
    void theCurrentVersionHasAScriptCreatingTheTablesAtOnce() {
        assertThat(new MySqlDialect().createSchemaScript(SchemaScripts.currentVersion())).isPresent();
    }
}
