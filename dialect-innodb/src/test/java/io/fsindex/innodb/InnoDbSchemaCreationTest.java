package io.fsindex.innodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.SchemaScripts;
import io.fsindex.testkit.SchemaCreationConformanceTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tables created at once equal those every version's script leaves, on MySQL or MariaDB, compared with
 * {@link InnoDbCatalog} beside the JDBC metadata. A subclass names its server and dialect.
 */
public abstract class InnoDbSchemaCreationTest extends SchemaCreationConformanceTest {
    /** The dialect under test. */
    protected abstract InnoDbDialect dialect();

    @Override
    protected List<String> engineCatalog(Connection c, String prefix) throws SQLException {
        return InnoDbCatalog.of(c, prefix);
    }

    /** InnoDB's DDL is slow, so a new index's tables are created at once: a new schema version needs its own script. */
    @Test
    void theCurrentVersionHasAScriptCreatingTheTablesAtOnce() {
        assertThat(dialect().createSchemaScript(SchemaScripts.currentVersion())).isPresent();
    }
}
