package io.fsindex.core.spi;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;

import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;

import java.sql.SQLException;
import java.sql.Statement;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Table;

/**
 * The statements whose SQL must differ between engines; everything else fsindex renders once in core from jOOQ.
 * Each default is the standard rendering, so a dialect overrides only what its engine does differently. Statements
 * take named parameters ({@code :scan} the current scan id; {@code :parent} a parent row id; {@code :name} an entry
 * name; {@code :kind}, {@code :size}, {@code :mtime}, {@code :link}, {@code :key} an entry's attributes; {@code :dir}
 * a directory row id) that fsindex binds. Handed out by {@link Dialect#statements()}.
 */
public interface DialectStatements {

    /** The standard rendering of every statement, for an engine that needs none of its own. */
    DialectStatements STANDARD = new DialectStatements() {
    };

    /**
     * Inserts a child row if its parent still exists and no newer scan has listed the parent, or updates the existing
     * row if no newer scan has written it; affects no row otherwise.
     */
    default Query upsertChild(FsTables t) {
        Table<?> p = t.files.as("p");
        Field<Long> scan = param("scan", Long.class);
        Field<Long> parent = param("parent", Long.class);
        return updateUnlessNewer(insertSelect(t, parent, org.jooq.impl.DSL.exists(lockedWhereConcurrent(
                        selectOne().from(p)
                        .where(field(org.jooq.impl.DSL.name("p", "id"), Long.class).eq(parent))
                        .and(field(org.jooq.impl.DSL.name("p", "listed_by"), Long.class).le(scan)))))
                .onConflict(t.parent, t.name)
                .doUpdate(), t);
    }

    /**
     * Returns {@code guard}, a read of directory rows that writes below them depend on (their {@code listed_by}: a
     * scan may write a directory's children only while no newer scan has listed it), with a shared lock on the rows
     * read until the transaction ends where write transactions run concurrently, so that a newer scan's claim of a
     * directory (an {@code UPDATE} of its row) waits for the write and then sees it, or the write waits for the claim
     * and then sees {@code listed_by} too new. The rows exist whenever the lock matters, so this locks no gap.
     * Unchanged (a plain read) by default, enough where write transactions are serialised (SQLite's
     * {@code BEGIN IMMEDIATE}).
     */
    default <R extends org.jooq.Record> org.jooq.Select<R> lockedWhereConcurrent(
            org.jooq.SelectConditionStep<R> guard) {
        return guard;
    }

    /**
     * Returns {@code read}, a read of rows the transaction is about to write or take out of the index, with an
     * exclusive lock on the rows read until the transaction ends where write transactions run concurrently: the read
     * waits for a transaction changing one of them, or writing below one (which holds
     * {@link #lockedWhereConcurrent its guard's} shared lock on it), and then reads the row's newest version, and
     * nothing is written below them until the transaction ends. Unchanged (a plain read) by default, enough where write
     * transactions are serialised.
     */
    default <R extends org.jooq.Record> org.jooq.Select<R> lockedForWrite(org.jooq.SelectConditionStep<R> read) {
        return read;
    }

    /**
     * Inserts {@code rows} child rows that were not there when this scan, owning their parents' listings, read the
     * parents' children in the same transaction; a row whose name has appeared since is left alone. Only a newer scan
     * can have written it (no older scan may write below a directory a newer one has claimed), so its row stands.
     * fsindex runs this only after {@link #lockedWhereConcurrent its guard} confirmed, with the row lock where the
     * engine needs one, that no newer scan has listed the parents, so unlike {@link #upsertChild} it needs no parent
     * check of its own. Row {@code i}'s parameters are {@code :parent}{@code i}, {@code :name}{@code i}, {@code
     * :kind}{@code i}, {@code :size}{@code i}, {@code :mtime}{@code i}, {@code :link}{@code i}, {@code :key}{@code
     * i} and {@code :listed}{@code i} (its {@code listed_by}: fsindex passes the scan for a directory it claims in
     * the same transaction, 0 otherwise); {@code :scan} is shared.
     */
    default Query insertChildren(FsTables t, int rows) {
        return childRows(t, rows).onConflictDoNothing();
    }

    /** The plain multi-row {@code INSERT … VALUES} that {@link #insertChildren} completes with a conflict clause. */
    static org.jooq.InsertValuesStep10<org.jooq.Record, Long, String, String, Long, Long, String, Long, Long, Integer,
            Long> childRows(FsTables t, int rows) {
        var insert = org.jooq.impl.DSL.insertInto(t.files, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget,
                t.fileKey, t.scanId, t.stale, t.listedBy);
        for (int i = 0; i < rows; i++) {
            insert = insert.values(param("parent" + i, Long.class), param("name" + i, String.class),
                    param("kind" + i, String.class), param("size" + i, Long.class), param("mtime" + i, Long.class),
                    param("link" + i, String.class), param("key" + i, Long.class), param("scan", Long.class),
                    inline(0), param("listed" + i, Long.class));
        }
        return insert;
    }

    /**
     * Returns {@link #insertChildren}, returning each inserted row's {@code id, parent, name} and leaving out each
     * row that conflicts with an existing one, or null where the engine cannot return them (the default): the scan
     * then reads the rows it inserted back. Not used where the dialect gives {@link #lastFileId}.
     */
    default Query insertChildrenReturning(FsTables t, int rows) {
        return null;
    }

    /**
     * The largest id the files table has handed out so far (0 if none), read in a write transaction no other writer
     * can run beside, or null (the default) where writers run concurrently. Where given, the scan numbers its new
     * rows on from it and inserts them by {@link #insertChildrenNumbered}, so it knows their ids without the insert
     * returning them or a read back; an id a conflicting row leaves unused is never a row's, so it may come again.
     */
    default Query lastFileId(FsTables t) {
        return null;
    }

    /**
     * {@link #insertChildren} with each row's id given too ({@code :id0…}, numbered on from {@link #lastFileId});
     * a row that conflicts with an existing one is left out and its id unused.
     */
    default Query insertChildrenNumbered(FsTables t, int rows) {
        var insert = org.jooq.impl.DSL.insertInto(t.files, t.id, t.parent, t.name, t.kind, t.size, t.mtime,
                t.linkTarget, t.fileKey, t.scanId, t.stale, t.listedBy);
        for (int i = 0; i < rows; i++) {
            insert = insert.values(param("id" + i, Long.class), param("parent" + i, Long.class),
                    param("name" + i, String.class), param("kind" + i, String.class), param("size" + i, Long.class),
                    param("mtime" + i, Long.class), param("link" + i, String.class), param("key" + i, Long.class),
                    param("scan", Long.class), inline(0), param("listed" + i, Long.class));
        }
        return insert.onConflictDoNothing();
    }

    /**
     * Throws if the {@link #insertChildrenReturning} statement that just ran left a row out for any reason but a
     * conflict with an existing row; does nothing by default, for an insert that can leave out only conflicting rows.
     */
    default void requireOnlyConflictsLeftOut(Statement insert) throws SQLException {
    }

    /** Inserts a top-level row (a filesystem root, which has no parent), or updates it if no newer scan wrote it. */
    default Query upsertTopLevel(FsTables t) {
        // SQLite needs a WHERE before ON CONFLICT in INSERT ... SELECT, or it parses ON as a join.
        return updateUnlessNewer(insertSelect(t, inline(null, Long.class), org.jooq.impl.DSL.trueCondition())
                .onConflict(t.name).where(t.parent.isNull())
                .doUpdate(), t);
    }

    /**
     * Claims directory {@code :dir} for listing by scan {@code :scan} unless a newer scan has listed it; affects one
     * row if the scan may descend into it. By default {@link #claimDirectories} of that one row.
     */
    default Query claimDirectory(FsTables t) {
        return claimDirectories(t, t.id.eq(param("dir", Long.class)));
    }

    /**
     * Claims the directories {@code which} selects for listing by scan {@code :scan}, each unless a newer scan has
     * listed it; a directory's row then has {@code listed_by = :scan} exactly if the scan may descend into it.
     */
    default Query claimDirectories(FsTables t, org.jooq.Condition which) {
        Field<Long> scan = param("scan", Long.class);
        return org.jooq.impl.DSL.update(t.files)
                .set(t.listedBy, scan)
                .where(which)
                .and(t.listedBy.le(scan))
                .and(t.kind.eq(inline("DIRECTORY")));
    }

    /**
     * Locks the change feed's head row until the transaction ends and reads its {@code last_seq}. An fsindex write
     * transaction that changed entries runs this after its other writes and then writes only the feed until it
     * commits, so change numbers are handed out in commit order and the holder never waits for another lock. Where
     * write transactions are serialised anyway (SQLite), a plain read.
     */
    default Query lockFeed(FsTables t) {
        return org.jooq.impl.DSL.select(t.feedLastSeq).from(t.feed).where(t.feedId.eq(inline(1))).forUpdate();
    }

    /**
     * Refreshes the planner's statistics of the files table (and whatever else the engine needs before it reads many
     * new rows fast), which fsindex runs outside any transaction after a scan that added or removed many rows; null
     * where the engine keeps them fresh itself or plans well without (the default).
     */
    default Query analyzeFiles(FsTables t) {
        return null;
    }

    /**
     * How many levels an {@code ON DELETE CASCADE} may run within one statement on this engine; fsindex cuts deeper
     * subtrees from the bottom in bands of this depth before deleting their top rows. Unlimited by default.
     */
    default int maxCascadeDepth() {
        return Integer.MAX_VALUE;
    }

    /**
     * The join of one step of a recursive walk down the tree: {@code walked}, the rows the walk reached one level up,
     * with {@code below}, the files rows, on {@code on} (a row of {@code below} is a child of one of {@code walked}).
     * By default a plain join, in whatever order the planner picks.
     */
    default org.jooq.Table<?> walkStep(org.jooq.Table<?> walked, org.jooq.Table<?> below, org.jooq.Condition on) {
        return below.join(walked).on(on);
    }

    /**
     * The files table under alias {@code alias}, for reading live rows by their parent, the directories a walk
     * reached: a walk's step down (each directory's live directories, by {@code (parent, kind, gone_at)}), and the rows
     * a directory's size sums or a find under a directory reads (by parent, live ones). Read through the tree index
     * ({@code <prefix>files_tree}) where the engine's planner may pick another (as written by default).
     */
    default org.jooq.Table<?> filesByParent(FsTables t, String alias) {
        return t.files.as(alias);
    }

    /**
     * The rows of {@code rows} below the directories a walk reached ({@code walked}), read walk first, so that each
     * directory's rows are looked up by parent instead of the whole table being read in another order (which an
     * {@code ORDER BY id} invites) with the walk probed per row. Every row of the result satisfies {@code on}: the
     * statement states it in its {@code WHERE} clause as well, so the default, a {@code CROSS JOIN} (which SQLite
     * never reorders, and the others plan as the inner join it then is), may leave it there.
     */
    default org.jooq.Table<?> rowsBelowWalk(org.jooq.Table<?> walked, org.jooq.Table<?> rows, org.jooq.Condition on) {
        return walked.crossJoin(rows);
    }

    /**
     * Whether the size of a directory that holds every live row of the index but its ancestors is summed over the
     * whole table in one statement, which checks in its own snapshot that the directory still does (true by
     * default), rather than by walking the directory's directories.
     */
    default boolean sumsSoleSubtreesInOnePass() {
        return true;
    }

    /**
     * How many names of a path one statement of a lookup by path follows, joining the files table once per name (1
     * to 16): by default 16, so that a lookup on a server costs one round trip instead of one per name.
     */
    default int namesPerPathStatement() {
        return 16;
    }

    /**
     * Deletes the files rows whose ids {@code ids} selects, a select that may read the files table itself (its one
     * column named {@code id}); by default {@code WHERE id IN} those ids read into a derived table first.
     */
    default Query deleteFiles(FsTables t, org.jooq.Select<? extends org.jooq.Record1<Long>> ids) {
        return org.jooq.impl.DSL.deleteFrom(t.files).where(t.id.in(idsOf(ids)));
    }

    /**
     * Sets {@code assignments} on the files rows whose ids {@code ids} selects (as for {@link #deleteFiles}) and that
     * meet {@code condition}; by default {@code WHERE condition AND id IN} those ids.
     */
    default Query updateFiles(FsTables t, org.jooq.Select<? extends org.jooq.Record1<Long>> ids,
                              java.util.Map<? extends Field<?>, ? extends Field<?>> assignments,
                              org.jooq.Condition condition) {
        return org.jooq.impl.DSL.update(t.files).set(assignments).where(condition).and(t.id.in(idsOf(ids)));
    }

    /** The ids {@code ids} selects, read through a derived table named {@code ids}. */
    private static org.jooq.Select<org.jooq.Record1<Long>> idsOf(
            org.jooq.Select<? extends org.jooq.Record1<Long>> ids) {
        return select(field(org.jooq.impl.DSL.name("ids", "id"), Long.class)).from(ids.asTable("ids"));
    }

    private static org.jooq.InsertOnDuplicateStep<org.jooq.Record> insertSelect(FsTables t, Field<Long> parent,
                                                                              org.jooq.Condition guard) {
        return org.jooq.impl.DSL.insertInto(t.files, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget,
                        t.fileKey, t.scanId, t.stale, t.listedBy)
                .select(select(parent, param("name", String.class), param("kind", String.class),
                        param("size", Long.class), param("mtime", Long.class), param("link", String.class),
                        param("key", Long.class), param("scan", Long.class), inline(0), inline(0L)).where(guard));
    }

    /** The conflict branch of both upserts: take this scan's attributes unless a newer scan wrote the row. */
    private static Query updateUnlessNewer(org.jooq.InsertOnDuplicateSetStep<org.jooq.Record> conflict,
                                           FsTables t) {
        Field<Long> scan = param("scan", Long.class);
        return conflict
                .set(t.fingerprint, t.keptIfUnchanged(t.fingerprint))
                .set(t.contentHash, t.keptIfUnchanged(t.contentHash))
                .set(t.kind, param("kind", String.class))
                .set(t.size, param("size", Long.class))
                .set(t.mtime, param("mtime", Long.class))
                .set(t.linkTarget, param("link", String.class))
                .set(t.fileKey, param("key", Long.class))
                .set(t.scanId, scan)
                .set(t.stale, inline(0))
                .set(t.goneAt, inline(null, Long.class))
                .where(qualified(t, t.scanId).le(scan));
    }

    private static <T> Field<T> qualified(FsTables t, Field<T> column) {
        return field(org.jooq.impl.DSL.name(t.filesName(), column.getName()), column.getType());
    }
}
