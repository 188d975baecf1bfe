package io.fsindex.innodb;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.when;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.FsTables;
import java.io.InputStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Loads new child rows, and the change rows recording them, by {@code LOAD DATA LOCAL INFILE}, one statement for a
 * whole wave, where both the server ({@code local_infile}) and the driver allow it (the dialect's
 * {@link InnoDbDialect#driverAllowsLocalInfile driverAllowsLocalInfile} hook says the latter). InnoDB numbers loaded
 * rows itself: its id counter cannot hand out ids beforehand without colliding with its own numbering, so the rows go
 * in without ids and {@link #loadedIds} reads the first one given ({@code LAST_INSERT_ID()}) and checks that the rows
 * took consecutive numbers (at {@code innodb_autoinc_lock_mode = 2}, MySQL 8's default, another writer's inserts may
 * take numbers in between; the scan then retries the transaction with inserts). The rows load with
 * {@code foreign_key_checks} off, back on before anything else runs on the connection: their parents are share-locked
 * and checked by the wave's guard and their scan is running (see {@link io.fsindex.core.spi.Dialect#bulkLoader}), so
 * the checks, a lookup of each row's parent and scan, could find nothing and only cost server time.
 *
 * <p>Public, with its statements, only for the dialects' tests, which check them as the server runs them.
 */
public final class LocalInfileLoader implements BulkLoader {
    private final InnoDbDialect dialect;
    private final String loadChildren;
    private final String loadChanges;
    private final String loadedNumbering;

    /**
     * @param dialect the dialect whose hooks send the text and whose jOOQ dialect renders the statements
     * @param t the tables to load into
     */
    public LocalInfileLoader(InnoDbDialect dialect, FsTables t) {
        this.dialect = dialect;
        DSLContext ctx = DSL.using(dialect.sqlDialect());
        List<Field<?>> columns = BulkLoader.columns(t);
        this.loadChildren = loadData(ctx, t.files, columns.subList(1, columns.size()));
        this.loadChanges = loadData(ctx, t.changes, BulkLoader.changeColumns(t));
        this.loadedNumbering = ctx.render(numbering(t));
    }

    /** The statement for new child rows: every loaded column but the id, which InnoDB assigns. */
    public String childrenStatement() {
        return loadChildren;
    }

    /** The statement for the change feed's rows, numbered already. */
    public String changesStatement() {
        return loadChanges;
    }

    /**
     * The first id the last load got ({@code LAST_INSERT_ID()}), the id step, and how many rows of scan {@code ?}
     * lie from that id over {@code ?} more steps, in one round trip. The rows took ascending numbers of that step from
     * the first on; if all of them lie in that range, they are exactly those numbers in order. (A sum, not a count
     * with {@code scan_id} in the WHERE, so that only the primary key's range can be chosen to read.)
     */
    public String numberingStatement() {
        return loadedNumbering;
    }

    @Override
    public long[] newIds(Connection c, int count) {
        return null;
    }

    @Override
    public long load(Connection c, InputStream text) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET foreign_key_checks = 0");
            long rows;
            try {
                rows = loadLocal(c, loadChildren, text);
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
        try (PreparedStatement s = c.prepareStatement(loadedNumbering)) {
            s.setLong(1, scan);
            s.setLong(2, count - 1);
            try (ResultSet rs = s.executeQuery()) {
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
    public void loadChanges(Connection c, InputStream text) throws SQLException {
        loadLocal(c, loadChanges, text);
    }

    @Override
    public boolean available(Connection c) throws SQLException {
        if (!dialect.driverAllowsLocalInfile(c)) {
            return false;
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@local_infile")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }

    /**
     * Runs {@code load} with {@code text} as its local file. A {@code LOCAL} load turns what would be an error (a row
     * that breaks a constraint, a value cut short) into a warning and goes on; any warning fails it here instead.
     */
    public long loadLocal(Connection c, String load, InputStream text) throws SQLException {
        try (Statement s = c.createStatement()) {
            dialect.sendLocalInfileFrom(s, text);
            long rows;
            try {
                rows = s.executeLargeUpdate(load);
            } finally {
                dialect.stopSendingLocalInfile(s);
            }
            SQLWarning w = s.getWarnings();
            if (w != null) {
                throw new SQLException("LOAD DATA LOCAL INFILE left a warning: " + w.getMessage(), w.getSQLState(),
                        w.getErrorCode());
            }
            return rows;
        }
    }

    /**
     * Turns foreign-key checks back on after a load; if that fails too after the load's own {@code failure}, it is
     * added to that failure instead of hiding it.
     */
    private static void restoreForeignKeyChecks(Statement s, Exception failure) throws SQLException {
        try {
            s.execute("SET foreign_key_checks = 1");
        } catch (SQLException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    private static org.jooq.Select<?> numbering(FsTables t) {
        Field<Long> first = field("last_insert_id()", Long.class);
        Field<Long> step = field("@@auto_increment_increment", Long.class);
        Field<BigDecimal> ours = select(DSL.sum(when(t.scanId.eq(param("scan", Long.class)), inline(1))
                .otherwise(inline(0)))).from(t.files)
                .where(t.id.between(first, first.plus(param("steps", Long.class).times(step)))).asField();
        return select(first, step, ours);
    }

    /** {@code LOAD DATA LOCAL INFILE} of text in the loader's format into {@code table}'s {@code columns}. */
    private static String loadData(DSLContext ctx, Table<?> table, List<Field<?>> columns) {
        return "LOAD DATA LOCAL INFILE 'fsindex-rows' INTO TABLE " + ctx.render(table) + " CHARACTER SET utf8mb4 ("
                + columns.stream().map(f -> ctx.render(DSL.name(f.getName()))).collect(Collectors.joining(", "))
                + ")";
    }
}
