package io.fsindex.innodb;

import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.when;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.PoolOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record1;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * What MySQL and MariaDB share: both run fsindex on InnoDB with the same schema script and the same statements; the
 * two subclasses ({@code io.fsindex.mysql.MySqlDialect} in {@code dialect-mysql}, {@code io.fsindex.mariadb.MariaDbDialect}
 * in {@code dialect-mariadb}) differ only in names, driver and jOOQ dialect, which they state through the protected
 * hooks below. Public only so that those two modules can extend it: applications use one of the two dialects, never
 * this class, and its hooks may change between versions.
 *
 * <ul>
 *   <li><b>Isolation.</b> Every connection runs at READ COMMITTED ({@link #prepare}). At InnoDB's default, REPEATABLE
 *   READ, a plain SELECT reads the snapshot taken at the transaction's first read, so reading a row back after an
 *   upsert that changed nothing (because another scan had just committed a newer version) would miss that row.
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
 *   so {@link #maxCascadeDepth} makes fsindex cut deeper subtrees from the bottom in bands first. (Ordering the
 *   delete by id would not do: a moved directory keeps its id under a parent with a larger one.)
 *   <li><b>Retries.</b> Deadlocks (1213), lock wait timeouts (1205) and SQLState 40001 are retried from the start
 *   of the transaction.
 * </ul>
 * Connections must use the utf8mb4 character set, which both drivers do by default. On an application's own data
 * source, the sweep can delete subtrees only as deep as the server's recursion limit ({@code cte_max_recursion_depth}
 * on MySQL, {@code max_recursive_iterations} on MariaDB, 1000 by default) unless that is raised.
 */
public abstract class InnoDbDialect implements Dialect {
    /** ER_LOCK_DEADLOCK: InnoDB rolled the whole transaction back to break a deadlock. */
    static final int DEADLOCK = 1213;
    /** ER_LOCK_WAIT_TIMEOUT: a lock wait exceeded innodb_lock_wait_timeout. */
    static final int LOCK_WAIT_TIMEOUT = 1205;
    /** Connections the pool fsindex opens may hold at once: one per running scan, plus readers. */
    static final int MAX_POOL_SIZE = 32;
    /** How deep a directory tree the sweep may walk on the pool fsindex opens (a path is at most 4096 bytes). */
    static final int MAX_TREE_DEPTH = 4096;

    /**
     * InnoDB stops cascading deletes 15 levels down; a deeper directory that becomes a file has its old contents cut
     * into bands of this depth from the bottom first, and so is a subtree of orphans the purge deletes.
     */
    @Override
    public int maxCascadeDepth() {
        return 14;
    }

    /** The fragment of a JDBC URL this dialect serves, e.g. {@code ":mysql:"}. */
    protected abstract String urlMarker();

    /** The JDBC driver class for the pool fsindex opens. */
    protected abstract String driverClassName();

    /**
     * The session variable that caps a recursive query's depth (1000 by default on both engines): the sweep walks
     * deleted subtrees with one, so the pool fsindex opens raises it to {@link #MAX_TREE_DEPTH}.
     */
    protected abstract String recursionLimitVariable();

    /**
     * Both engines' scripts, which live beside this class (a subclass in another package has none of its own).
     *
     * @param version the schema version the script brings the tables to
     * @return the script, or empty if there is no such version
     */
    @Override
    public Optional<String> schemaScript(int version) {
        try (InputStream in = InnoDbDialect.class.getResourceAsStream("schema/V" + version + ".sql")) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Driver properties for the pool fsindex opens, beyond those both drivers get. */
    protected Map<String, String> extraDriverProperties() {
        return Map.of();
    }

    @Override
    public boolean handlesJdbcUrl(String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.contains(urlMarker());
    }

    /** A HikariCP pool of {@link #MAX_POOL_SIZE} connections; see the four-argument form. */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password) {
        return openDataSource(jdbcUrl, user, password, PoolOptions.DEFAULTS);
    }

    /** The same pool as {@link #openDataSource}: connecting to a server creates nothing. */
    @Override
    public DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return openDataSource(jdbcUrl, user, password, pool);
    }

    /** A HikariCP pool (closed by {@code FsIndex.close()}) at READ COMMITTED, reporting changed rows. */
    @Override
    public DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("fsindex-" + name());
        config.setJdbcUrl(jdbcUrl);
        config.setDriverClassName(driverClassName());
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(pool.maxPoolSizeOr(MAX_POOL_SIZE));
        config.setMetricRegistry(pool.metricRegistry());
        config.setMinimumIdle(1);
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // 0 for an upsert that changed nothing, so SqlFileSink can tell a row a newer scan owns ("skipped").
        config.addDataSourceProperty("useAffectedRows", "true");
        config.addDataSourceProperty("sessionVariables", recursionLimitVariable() + "=" + MAX_TREE_DEPTH);
        extraDriverProperties().forEach(config::addDataSourceProperty);
        return new HikariDataSource(config);
    }

    /** Sets READ COMMITTED and autocommit, also on connections from an application's own data source. */
    @Override
    public void prepare(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    }

    /**
     * A read-only session ({@code SET SESSION TRANSACTION READ ONLY}), said explicitly because a driver that tracks
     * session state locally may not send {@link Connection#setReadOnly} to the server.
     */
    @Override
    public void prepareReadOnly(Connection c) throws SQLException {
        c.setReadOnly(true);
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("SET SESSION TRANSACTION READ ONLY");
        }
    }

    /** How long opening an index waits for another process that is creating or upgrading the same tables. */
    static final int SCHEMA_LOCK_SECONDS = 120;

    /** MySQL's DDL commits on its own, so a named lock keeps two processes from creating the tables at once. */
    @Override
    public void lockSchema(Connection c, String tablePrefix) throws SQLException {
        try (java.sql.PreparedStatement s = c.prepareStatement("SELECT GET_LOCK(?, ?)")) {
            s.setString(1, schemaLockName(tablePrefix));
            s.setInt(2, SCHEMA_LOCK_SECONDS);
            try (java.sql.ResultSet rs = s.executeQuery()) {
                if (!rs.next() || rs.getInt(1) != 1) {
                    throw new SQLException("waited " + SCHEMA_LOCK_SECONDS + " s for another process creating or"
                            + " upgrading the fsindex tables " + tablePrefix + "* (lock " + schemaLockName(tablePrefix)
                            + ")");
                }
            }
        }
    }

    @Override
    public void unlockSchema(Connection c, String tablePrefix) throws SQLException {
        try (java.sql.PreparedStatement s = c.prepareStatement("SELECT RELEASE_LOCK(?)")) {
            s.setString(1, schemaLockName(tablePrefix));
            s.executeQuery().close();
        }
    }

    /** Lock names are server-wide and at most 64 characters; databases sharing a prefix only share the wait. */
    private static String schemaLockName(String tablePrefix) {
        String name = "fsindex_schema:" + tablePrefix;
        return name.length() <= 64 ? name : name.substring(0, 48) + Integer.toHexString(name.hashCode());
    }

    /** MySQL and MariaDB refuse a longer table, index or constraint name (error 1059). */
    @Override
    public int maxIdentifierLength() {
        return 64;
    }

    @Override
    public boolean isRetryable(SQLException e) {
        return e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT
                || "40001".equals(e.getSQLState());
    }

    /** Besides class 08: the session was killed ({@code KILL}, ER_CONNECTION_KILLED, SQLSTATE 70100). */
    @Override
    public boolean isConnectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("70100"));
    }

    @Override
    public Query upsertChild(FsTables t) {
        Field<Long> parent = param("parent", Long.class);
        Field<Long> scan = param("scan", Long.class);
        Table<?> p = t.files.as("p");
        Condition parentStillListable = exists(lockedWhereConcurrent(selectOne().from(p)
                .where(field(DSL.name("p", t.id.getName()), Long.class).eq(parent))
                .and(field(DSL.name("p", t.listedBy.getName()), Long.class).le(scan))));
        return upsert(t, parent, parentStillListable);
    }

    /**
     * A plain multi-row {@code INSERT ... VALUES} whose duplicate branch assigns the id to itself, which leaves an
     * existing row as it is: jOOQ renders "on conflict do nothing" as {@code INSERT IGNORE} here, which would also turn
     * other errors into warnings.
     */
    // Templated rather than jOOQ's onDuplicateKeyUpdate(), which on MySQL 8 adds a row alias ("as excluded") that
    // this statement does not need.
    @Override
    public Query insertChildren(FsTables t, int rows) {
        return DSL.query("{0} on duplicate key update {1} = {1}", Dialect.childRows(t, rows), t.id);
    }

    @Override
    public Query upsertTopLevel(FsTables t) {
        return upsert(t, inline(null, Long.class), noCondition());
    }

    /**
     * Inserts the entry if {@code guard} holds, or else updates the existing row where no newer scan wrote it; each
     * assignment keeps the old value when a newer scan did.
     */
    private static Query upsert(FsTables t, Field<Long> parent, Condition guard) {
        Field<Long> scan = param("scan", Long.class);
        Field<String> kind = param("kind", String.class);
        Field<Long> size = param("size", Long.class);
        Field<Long> mtime = param("mtime", Long.class);
        Field<String> link = param("link", String.class);
        Condition ours = current(t, t.scanId).le(scan);
        Field<Long> key = param("key", Long.class);
        return DSL.insertInto(t.files, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget, t.fileKey, t.scanId,
                        t.stale, t.listedBy)
                .select(select(parent, param("name", String.class), kind, size, mtime, link, key, scan, inline(0),
                        inline(0L)).where(guard))
                .onDuplicateKeyUpdate()
                // Before kind, size and mtime, which they compare with (assignments run left to right).
                .set(t.fingerprint, when(ours, t.keptIfUnchanged(t.fingerprint)).otherwise(current(t, t.fingerprint)))
                .set(t.contentHash, when(ours, t.keptIfUnchanged(t.contentHash))
                        .otherwise(current(t, t.contentHash)))
                .set(t.kind, when(ours, kind).otherwise(current(t, t.kind)))
                .set(t.size, when(ours, size).otherwise(current(t, t.size)))
                .set(t.mtime, when(ours, mtime).otherwise(current(t, t.mtime)))
                .set(t.linkTarget, when(ours, link).otherwise(current(t, t.linkTarget)))
                .set(t.fileKey, when(ours, key).otherwise(current(t, t.fileKey)))
                .set(t.stale, when(ours, inline(0)).otherwise(current(t, t.stale)))
                .set(t.goneAt, when(ours, inline(null, Long.class)).otherwise(current(t, t.goneAt)))
                // Last, so every condition above reads the row's original scan_id: MySQL assigns left to right and
                // a later expression sees an earlier column's new value. (Setting scan_id to :scan keeps the
                // condition true, so any order happens to work; this one does not rely on that.)
                .set(t.scanId, when(ours, scan).otherwise(current(t, t.scanId)));
    }

    /**
     * New children of a directory the scan inserted itself go in by {@code LOAD DATA LOCAL INFILE}, one statement for
     * a whole wave, where both the server ({@code local_infile}) and the driver allow it (see {@link
     * #driverAllowsLocalInfile}); the change feed's rows follow the same way. InnoDB numbers loaded rows itself: its
     * id counter cannot hand out ids beforehand without colliding with its own numbering, so the rows go in without
     * ids and {@link BulkLoader#loadedIds} reads the first one given ({@code LAST_INSERT_ID()}) and checks that the
     * rows took consecutive numbers (at {@code innodb_autoinc_lock_mode = 2}, MySQL 8's default, another writer's
     * inserts may take numbers in between; the scan then retries the transaction with inserts). The rows load with
     * {@code foreign_key_checks} off, back on before anything else runs on the connection: their parents are
     * share-locked and checked by the wave's guard and their scan is running (see {@link Dialect#bulkLoader}), and
     * the checks, a lookup of each row's parent and scan, were 18 % of the load's server time (1M-row cold scans).
     */
    @Override
    public BulkLoader bulkLoader(FsTables t) {
        String load = loadChildren(t);
        String loadChanges = loadChanges(t);
        String numbered = loadedNumbering(t);
        return new BulkLoader() {
            @Override
            public long[] newIds(Connection c, int count) {
                return null;
            }

            @Override
            public long load(Connection c, java.io.InputStream text) throws SQLException {
                try (java.sql.Statement s = c.createStatement()) {
                    s.execute("SET foreign_key_checks = 0");
                    long rows;
                    try {
                        rows = loadLocal(c, load, text);
                    } catch (SQLException | RuntimeException e) {
                        restoreForeignKeyChecks(s, e);  // the load's failure is the one to report
                        throw e;
                    }
                    restoreForeignKeyChecks(s, null);
                    return rows;
                }
            }

            @Override
            public long[] loadedIds(Connection c, int count, long scan) throws SQLException {
                try (java.sql.PreparedStatement s = c.prepareStatement(numbered)) {
                    s.setLong(1, scan);
                    s.setLong(2, count - 1);
                    try (java.sql.ResultSet rs = s.executeQuery()) {
                        rs.next();
                        long first = rs.getLong(1);
                        long step = rs.getLong(2);
                        if (first <= 0 || rs.getLong(3) != count) {
                            return null;
                        }
                        long[] ids = new long[count];
                        for (int k = 0; k < count; k++) {
                            ids[k] = first + k * step;
                        }
                        return ids;
                    }
                }
            }

            @Override
            public void loadChanges(Connection c, java.io.InputStream text) throws SQLException {
                loadLocal(c, loadChanges, text);
            }

            @Override
            public boolean available(Connection c) throws SQLException {
                if (!driverAllowsLocalInfile(c)) {
                    return false;
                }
                try (java.sql.Statement s = c.createStatement();
                     java.sql.ResultSet rs = s.executeQuery("SELECT @@local_infile")) {
                    return rs.next() && rs.getInt(1) == 1;
                }
            }
        };
    }

    /**
     * Turns foreign-key checks back on after a load; if that fails too after the load's own {@code failure}, it is
     * added to that failure instead of hiding it.
     */
    private static void restoreForeignKeyChecks(java.sql.Statement s, Exception failure) throws SQLException {
        try {
            s.execute("SET foreign_key_checks = 1");
        } catch (SQLException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /**
     * The first id the last load got ({@code LAST_INSERT_ID()}), the id step, and how many rows of scan {@code ?}
     * lie from that id over {@code ?} more steps, in one round trip. The rows took ascending numbers of that step from
     * the first on; if all of them lie in that range, they are exactly those numbers in order. (A sum, not a count
     * with {@code scan_id} in the WHERE, so that only the primary key's range can be chosen to read.) This and the
     * other load statements below are public for the dialects' tests, which check them as the server runs them.
     */
    public final String loadedNumbering(FsTables t) {
        Field<Long> first = field("last_insert_id()", Long.class);
        Field<Long> step = field("@@auto_increment_increment", Long.class);
        Field<java.math.BigDecimal> ours = select(DSL.sum(when(t.scanId.eq(param("scan", Long.class)), inline(1))
                .otherwise(inline(0)))).from(t.files)
                .where(t.id.between(first, first.plus(param("steps", Long.class).times(step)))).asField();
        return DSL.using(sqlDialect()).render(select(first, step, ours));
    }

    /** The loader's statement for new child rows: every loaded column but the id, which InnoDB assigns. */
    public final String loadChildren(FsTables t) {
        java.util.List<Field<?>> columns = BulkLoader.columns(t);
        return loadData(t.files, columns.subList(1, columns.size()));
    }

    /** The loader's statement for the change feed's rows, numbered already. */
    public final String loadChanges(FsTables t) {
        return loadData(t.changes, BulkLoader.changeColumns(t));
    }

    /** {@code LOAD DATA LOCAL INFILE} of text in the loader's format into {@code table}'s {@code columns}. */
    private String loadData(Table<?> table, java.util.List<Field<?>> columns) {
        var ctx = DSL.using(sqlDialect());
        return "LOAD DATA LOCAL INFILE 'fsindex-rows' INTO TABLE " + ctx.render(table) + " CHARACTER SET utf8mb4 ("
                + columns.stream().map(f -> ctx.render(DSL.name(f.getName())))
                        .collect(java.util.stream.Collectors.joining(", ")) + ")";
    }

    /**
     * Runs {@code load} with {@code text} as its local file. A {@code LOCAL} load turns what would be an error (a row
     * that breaks a constraint, a value cut short) into a warning and goes on; any warning fails it here instead.
     */
    public final long loadLocal(Connection c, String load, java.io.InputStream text) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            sendLocalInfileFrom(s, text);
            long rows;
            try {
                rows = s.executeLargeUpdate(load);
            } finally {
                stopSendingLocalInfile(s);
            }
            java.sql.SQLWarning w = s.getWarnings();
            if (w != null) {
                throw new SQLException("LOAD DATA LOCAL INFILE left a warning: " + w.getMessage(), w.getSQLState(),
                        w.getErrorCode());
            }
            return rows;
        }
    }

    /**
     * Whether the driver behind {@code c} sends local files for {@code LOAD DATA LOCAL INFILE} at all (a client-side
     * switch of each driver); false unless a subclass that loads says otherwise.
     */
    protected boolean driverAllowsLocalInfile(Connection c) throws SQLException {
        return false;
    }

    /** Makes statement {@code s} send {@code text}, and only that, when the server asks for its local file. */
    protected void sendLocalInfileFrom(java.sql.Statement s, java.io.InputStream text) throws SQLException {
        throw new SQLException(name() + " sends no local files here");
    }

    /** Undoes {@link #sendLocalInfileFrom} once statement {@code s} has run, failed or not. */
    protected void stopSendingLocalInfile(java.sql.Statement s) throws SQLException {
    }

    /**
     * A multi-table {@code DELETE ... USING} joining the ids by primary key. MariaDB before 11.1 runs a single-table
     * DELETE's {@code id IN (subquery)} as a subquery per row of the whole table, so every sweep and purge read every
     * row; a join reads only the rows it deletes.
     */
    @Override
    public Query deleteFiles(FsTables t, org.jooq.Select<? extends Record1<Long>> ids) {
        return DSL.deleteFrom(t.files).using(materialized(ids)).where(joinedOnId(t));
    }

    /** A multi-table {@code UPDATE ... JOIN} on the ids, for the same reason as {@link #deleteFiles}. */
    @Override
    public Query updateFiles(FsTables t, org.jooq.Select<? extends Record1<Long>> ids,
                             Map<? extends Field<?>, ? extends Field<?>> assignments, Condition condition) {
        return DSL.update(t.files.join(materialized(ids)).on(joinedOnId(t))).set(assignments).where(condition);
    }

    /**
     * The ids as a derived table {@code ids} the server materializes before the join: MySQL would otherwise merge a
     * plain select of the files table into the statement and then refuse to change the table it reads (error 1093);
     * {@code DISTINCT} makes the derived table one it cannot merge.
     */
    private static Table<?> materialized(org.jooq.Select<? extends Record1<Long>> ids) {
        return DSL.selectDistinct(field(DSL.name("i", "id"), Long.class)).from(ids.asTable("i")).asTable("ids");
    }

    private static Condition joinedOnId(FsTables t) {
        return current(t, t.id).eq(field(DSL.name("ids", t.id.getName()), Long.class));
    }

    /** The existing row's column, qualified with the table name so it cannot mean the inserted value. */
    private static <T> Field<T> current(FsTables t, Field<T> column) {
        return field(DSL.name(t.filesName(), column.getName()), column.getType());
    }

    /**
     * The listing guard as a locking read ({@code FOR SHARE} / {@code LOCK IN SHARE MODE}), for the same reason as
     * the parent guard of {@link #upsertChild}: a plain read at READ COMMITTED would not wait for a newer scan's
     * uncommitted claim. It locks only the existing directory rows, never a gap.
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedWhereConcurrent(
            org.jooq.SelectConditionStep<R> guard) {
        return guard.forShare();
    }

    /**
     * A sweep's reads {@code FOR UPDATE}: at READ COMMITTED a locking read waits for the row and reads its newest
     * committed version, and locks no gap; the sweep reads only by primary key, by parent (the unique (parent, name)
     * key) and by the (scan_id, stale) key, so it locks only the rows it takes out.
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedForWrite(org.jooq.SelectConditionStep<R> read) {
        return read.forUpdate();
    }
}
