package io.fsindex.mariadb;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.innodb.InnoDbDialect;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Map;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

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

    /** ER_DUP_ENTRY: the warning {@code INSERT IGNORE} leaves for a row it left out as a duplicate. */
    static final int DUPLICATE_ENTRY = 1062;

    /**
     * {@code INSERT IGNORE ... RETURNING id, parent, name} (MariaDB 10.5+): returns the rows it inserted and leaves
     * out those whose name a concurrent scan inserted first, so the scan need not read its new rows back. (With
     * {@code ON DUPLICATE KEY UPDATE}, MariaDB returns the existing row of a duplicate too.) {@code IGNORE} also
     * turns other errors into warnings; {@link #requireOnlyConflictsLeftOut} turns them back.
     */
    // Templated: jOOQ renders no RETURNING for MariaDB's INSERT.
    @Override
    public Query insertChildrenReturning(FsTables t, int rows) {
        return DSL.query("{0} returning {1}, {2}, {3}", Dialect.childRows(t, rows).onDuplicateKeyIgnore(), t.id,
                t.parent, t.name);
    }

    /** Throws the first warning the insert left that is not a duplicate row's, as the error it would have been. */
    @Override
    public void requireOnlyConflictsLeftOut(Statement insert) throws SQLException {
        for (SQLWarning w = insert.getWarnings(); w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() != DUPLICATE_ENTRY) {
                throw new SQLException("a row left out of an insert for another reason than a duplicate name: "
                        + w.getMessage(), w.getSQLState(), w.getErrorCode());
            }
        }
    }

    /**
     * None on MariaDB: its inserts return the new rows' ids already and a load measured no faster (1M cold scans
     * 17.3, 17.5 s against 18.3, 17.5 s), so the security cost of {@code LOCAL INFILE} buys nothing. MySQL, whose
     * inserts return no ids, keeps it.
     */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        return null;
    }
}
