package io.fsindex.innodb;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.ErrorClassifier;
import io.fsindex.core.spi.FsTables;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * What MySQL and MariaDB share: both run fsindex on InnoDB with the same schema script and the same statements; the
 * two subclasses ({@code io.fsindex.mysql.MySqlDialect} in {@code dialect-mysql},
 * {@code io.fsindex.mariadb.MariaDbDialect} in {@code dialect-mariadb}) differ only in names, driver, jOOQ dialect,
 * driver settings, local-file loading and whether inserts return rows, which they state through the protected hooks
 * below. The parts live beside it: {@link InnoDbConnections}, {@link InnoDbErrors}, {@link InnoDbStatements} and
 * {@link LocalInfileLoader}. Public only so that those two modules can extend it: applications use one of the two
 * dialects, never this class, and its hooks may change between versions.
 *
 * <ul>
 *   <li><b>Isolation.</b> Every connection runs at READ COMMITTED ({@link InnoDbConnections#prepare}). At InnoDB's
 *   default, REPEATABLE READ, a plain SELECT reads the snapshot taken at the transaction's first read, so reading a row
 *   back after an upsert that changed nothing (because another scan had just committed a newer version) would miss that
 *   row.
 *   <li><b>The parent guard locks.</b> At READ COMMITTED the SELECT of an {@code INSERT ... SELECT} is a non-locking
 *   read: it would see a parent's last committed {@code listed_by} while a newer scan's claim of that parent is still
 *   uncommitted, and an older scan could then insert a child the newer scan never marks stale. The guard therefore
 *   reads the parent row with a shared lock ({@code FOR SHARE} on MySQL, {@code LOCK IN SHARE MODE} on MariaDB): it
 *   waits for the claim to commit and then sees it, and a claim that comes later waits for the insert to commit and
 *   then marks the new row stale. At READ COMMITTED that read locks only an existing parent row and never a gap, so
 *   it cannot set up the gap-lock deadlock of a check-then-insert ({@code SELECT ... FOR UPDATE} on a missing row).
 *   <li><b>Upserts</b> are {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE} with each assignment guarded by
 *   {@code CASE WHEN scan_id <= :scan}; {@code scan_id} is assigned last because MySQL evaluates assignments left
 *   to right and later ones see the new values of earlier ones.
 *   <li><b>Affected rows.</b> fsindex counts a row an upsert left alone as "skipped". MySQL reports 0 for it only
 *   with {@code useAffectedRows=true}, which the data source fsindex opens sets; the drivers' default counts it as
 *   found (1). With an application's own data source, set {@code useAffectedRows=true} on it too, or the scan
 *   statistics count such rows as unchanged (the index itself is right either way).
 *   <li><b>Deletes.</b> InnoDB cascades deletes at most 15 levels deep (error 3008 on MySQL, 1296/193 on MariaDB),
 *   so {@link InnoDbStatements#maxCascadeDepth} makes fsindex cut deeper subtrees from the bottom in bands first.
 *   (Ordering the delete by id would not do: a moved directory keeps its id under a parent with a larger one.)
 *   Each band walks the subtree with a recursive query whose steps {@link InnoDbStatements#walkStep} joins
 *   {@code STRAIGHT_JOIN} from the rows walked, so that MariaDB looks each level's children up by parent instead of
 *   reading the whole table per level.
 *   <li><b>Retries.</b> Deadlocks (1213), lock wait timeouts (1205) and SQLState 40001 are retried from the start
 *   of the transaction.
 * </ul>
 * Connections must use the utf8mb4 character set, which both drivers do by default. On an application's own data
 * source, the sweep can delete subtrees only as deep as the server's recursion limit ({@code cte_max_recursion_depth}
 * on MySQL, {@code max_recursive_iterations} on MariaDB, 1000 by default) unless that is raised.
 */
public abstract class InnoDbDialect implements Dialect {
    private final InnoDbErrors errors = new InnoDbErrors();
    private final InnoDbConnections connections = new InnoDbConnections(this);
    private final InnoDbStatements statements = new InnoDbStatements(insertsReturnRows());

    /** The fragment of a JDBC URL this dialect serves, e.g. {@code ":mysql:"}. */
    protected abstract String urlMarker();

    /** The JDBC driver class for the pool fsindex opens. */
    protected abstract String driverClassName();

    /**
     * The session variable that caps a recursive query's depth (1000 by default on both engines): the sweep walks
     * deleted subtrees with one, so the pool fsindex opens raises it to {@link InnoDbConnections#MAX_TREE_DEPTH}.
     */
    protected abstract String recursionLimitVariable();

    /** Driver properties for the pool fsindex opens, beyond those both drivers get. */
    protected Map<String, String> extraDriverProperties() {
        return Map.of();
    }

    /**
     * Whether the server runs {@code INSERT ... RETURNING} (MariaDB 10.5+), so that new rows' ids come back from the
     * insert itself ({@link InnoDbStatements#insertChildrenReturning}); false by default. Called once, while the
     * dialect is constructed: answer with a constant.
     */
    protected boolean insertsReturnRows() {
        return false;
    }

    /**
     * Whether the driver behind {@code c} sends local files for {@code LOAD DATA LOCAL INFILE} at all (a client-side
     * switch of each driver); false unless a subclass that loads says otherwise.
     */
    protected boolean driverAllowsLocalInfile(Connection c) throws SQLException {
        return false;
    }

    /** Makes statement {@code s} send {@code text}, and only that, when the server asks for its local file. */
    protected void sendLocalInfileFrom(Statement s, InputStream text) throws SQLException {
        throw new SQLException(name() + " sends no local files here");
    }

    /** Undoes {@link #sendLocalInfileFrom} once statement {@code s} has run, failed or not. */
    protected void stopSendingLocalInfile(Statement s) throws SQLException {
    }

    @Override
    public boolean handlesJdbcUrl(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.contains(urlMarker());
    }

    @Override
    public Connections connections() {
        return connections;
    }

    @Override
    public ErrorClassifier errors() {
        return errors;
    }

    @Override
    public DialectStatements statements() {
        return statements;
    }

    /** {@code LOAD DATA LOCAL INFILE} where the server and the driver allow it ({@link LocalInfileLoader}). */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        return new LocalInfileLoader(this, t);
    }

    /** Both engines' schema scripts live beside this class (a subclass in another package has none of its own). */
    @Override
    public Class<?> scriptsBeside() {
        return InnoDbDialect.class;
    }

    /** MySQL and MariaDB refuse a longer table, index or constraint name (error 1059). */
    @Override
    public int maxIdentifierLength() {
        return 64;
    }
}
