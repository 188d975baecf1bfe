package io.fsindex.innodb;

import io.fsindex.testkit.SchemaCreationConformanceTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The tables created at once equal those every version's script leaves, on MySQL or MariaDB, compared with
 * {@link InnoDbCatalog} beside the JDBC metadata. A subclass names its server.
 */
public abstract class InnoDbSchemaCreationTest extends SchemaCreationConformanceTest {
    @Override
    protected List<String> engineCatalog(Connection c, String prefix) throws SQLException {
        return InnoDbCatalog.of(c, prefix);
    }
}
