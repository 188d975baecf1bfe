package io.fsindex.mariadb;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.FsTables;
import io.fsindex.innodb.InnoDbDialect;
import java.util.Map;
import org.jooq.SQLDialect;

/**
 * The MariaDB 10.6+ dialect (InnoDB), for JDBC URLs containing {@code :mariadb:}, e.g.
 * {@code jdbc:mariadb://db.example:3306/fsindex}; given only a URL, fsindex pools connections with HikariCP through
 * MariaDB Connector/J. How the statements and the schema deal with InnoDB is described on the shared base class;
 * ids are never reused because MariaDB (since 10.2.4) persists the AUTO_INCREMENT counter across restarts.
 */
public final class MariaDbDialect extends InnoDbDialect {

    @Override
    public String name() {
        return "MariaDB";
    }

    @Override
    public SQLDialect sqlDialect() {
        return SQLDialect.MARIADB;
    }

    @Override
    protected String urlMarker() {
        return ":mariadb:";
    }

    @Override
    protected String driverClassName() {
        return "org.mariadb.jdbc.Driver";
    }

    @Override
    protected String recursionLimitVariable() {
        return "max_recursive_iterations";
    }

    /**
     * Server-side prepared statements: the server parses each statement once per connection instead of once per
     * execution, and a batch (the change feed's rows) goes as one bulk command instead of a statement per row. No
     * local files ({@code allowLocalInfile}, on by default in MariaDB Connector/J): fsindex never loads any here
     * ({@link #bulkLoader}), so the pool it opens does not offer the server to send one.
     */
    @Override
    protected Map<String, String> extraDriverProperties() {
        return Map.of("useServerPrepStmts", "true", "allowLocalInfile", "false");
    }

    /**
     * MariaDB 10.5+ runs {@code INSERT IGNORE ... RETURNING id, parent, name}, so the scan learns new rows' ids from
     * the insert itself instead of reading them back.
     */
    @Override
    protected boolean insertsReturnRows() {
        return true;
    }

    /**
     * None on MariaDB: its inserts return the new rows' ids already and a load measured no faster, so the security
     * cost of {@code LOCAL INFILE} buys nothing. MySQL, whose inserts return no ids, keeps it.
     */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        return null;
    }
}
