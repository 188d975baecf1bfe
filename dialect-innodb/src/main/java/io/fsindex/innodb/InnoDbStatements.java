package io.fsindex.innodb;

import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.when;

import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record1;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The statements MySQL and MariaDB need their own way (see {@link InnoDbDialect} for why): upserts as
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE} with guarded assignments, locking reads, deletes and updates
 * joined on the ids, and InnoDB's cascade depth; on MariaDB, inserts that return their rows.
 */
final class InnoDbStatements implements DialectStatements {
    private final boolean insertsReturnRows;

    /** @param insertsReturnRows whether the server runs {@code INSERT ... RETURNING} (MariaDB 10.5+) */
    InnoDbStatements(boolean insertsReturnRows) {
        this.insertsReturnRows = insertsReturnRows;
    }

    /**
     * InnoDB stops cascading deletes 15 levels down; a deeper directory that becomes a file has its old contents cut
     * into bands of this depth from the bottom first, and so is a subtree of orphans the purge deletes.
     */
    @Override
    public int maxCascadeDepth() {
        return 14;
    }


    /**
     * {@code STRAIGHT_JOIN} from the rows walked to their children, so each step looks its few children up by parent.
     * MariaDB estimates the walked rows of a step as the whole walk's (for the purge, every orphan of the table) and
     * may then read the whole files table once per level instead, probing the walked rows for each row: a purge of
     * an orphaned subtree a thousand levels deep then took minutes. MySQL orders it so already; this states it.
     */
    @Override
    public Table<?> walkStep(Table<?> walked, Table<?> below, Condition on) {
        return walked.straightJoin(below).on(on);
    }

    /**
     * {@code FORCE INDEX} on the tree index. Once InnoDB's statistics of a table were refreshed after a rescan, MySQL
     * planned the step through the index on {@code gone_at} instead ({@code gone_at IS NULL} matching every live row)
     * and so read all live rows once per directory, which grows with the square of the index. A directory's size sums
     * and a find under a directory read each walked directory's live rows by the same two conditions, so they are held
     * to the same index, which also holds the sizes and times they read.
     */
    @Override
    public Table<?> filesByParent(FsTables t, String alias) {
        return t.files.as(alias).forceIndex(t.files.getName() + "_tree");
    }

    /**
     * {@code STRAIGHT_JOIN} from the directories walked to their rows: MariaDB otherwise reads a find's rows in id
     * order through the whole table, probing the walk for each, to save sorting its matches by id.
     */
    @Override
    public Table<?> rowsBelowWalk(Table<?> walked, Table<?> rows, Condition on) {
        return walked.straightJoin(rows).on(on);
    }

    /**
     * No: on MySQL and MariaDB the one-pass statement took several times as long as the walk it replaces (at
     * 200,000 entries MySQL eight times, MariaDB four), so sizes are walked there.
     */
    @Override
    public boolean sumsSoleSubtreesInOnePass() {
        return false;
    }

    /** Four: MySQL and MariaDB plan a join of many tables anew for every lookup, for longer than it saves. */
    @Override
    public int namesPerPathStatement() {
        return 4;
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
        return DSL.query("{0} on duplicate key update {1} = {1}", DialectStatements.childRows(t, rows), t.id);
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

    /**
     * {@code INSERT IGNORE ... RETURNING id, parent, name} where the server has it (MariaDB 10.5+): returns the rows it
     * inserted and leaves out those whose name a concurrent scan inserted first, so the scan need not read its new
     * rows back. (With {@code ON DUPLICATE KEY UPDATE}, MariaDB returns the existing row of a duplicate too.)
     * {@code IGNORE} also turns other errors into warnings; {@link #requireOnlyConflictsLeftOut} turns them back.
     * Null on MySQL, which returns no rows from an insert.
     */
    // Templated: jOOQ renders no RETURNING for MariaDB's INSERT.
    @Override
    public Query insertChildrenReturning(FsTables t, int rows) {
        return insertsReturnRows ? DSL.query("{0} returning {1}, {2}, {3}",
                DialectStatements.childRows(t, rows).onDuplicateKeyIgnore(), t.id, t.parent, t.name) : null;
    }

    /** Throws the first warning the insert left that is not a duplicate row's, as the error it would have been. */
    @Override
    public void requireOnlyConflictsLeftOut(Statement insert) throws SQLException {
        if (insertsReturnRows) {
            InnoDbErrors.requireOnlyDuplicatesLeftOut(insert);
        }
    }
}
