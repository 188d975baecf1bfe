package io.fsindex.core.internal;

import io.fsindex.core.scan.Scan;
import io.fsindex.core.write.Row;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** Every statement fsindex runs, rendered once for one dialect and table prefix. */
public final class Statements {
    static {
        // jOOQ only renders SQL here; its banner and tips would be noise in an application's log.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    static final String FILE_COLUMNS = String.join(", ", Row.COLUMNS);

    public final FsTables t;
    public final Sql upsertChild;
    public final Sql upsertTopLevel;
    public final Sql claimDirectory;
    /** Claims up to {@link ForIds#MAX_IDS} directories at once; {@link #claimedDirectories} reads which were won. */
    public final ForIds<Long> claimDirectories;
    public final ForIds<Long> claimedDirectories;
    public final Sql updateChild;
    /** {@link #selectChild} and {@link #selectTopLevel} locking the row read, for a row about to be written. */
    public final Sql selectChildForWrite, selectTopLevelForWrite;
    /** {@link #updateChild} for a row read in the index: it leaves the row alone if it has left the index since. */
    public final Sql updateLiveChild;
    public final Sql countPurge;
    public final Sql purgeBelow;
    public final Sql purge;
    public final Sql staleDirectories;
    public final Sql staleFiles;
    public final Sql orphanStaleFiles;
    public final Sql subtreeRows;
    public final Sql setSubtreeGone;
    /** The top of a subtree the transaction takes out of the index, locked: id, kind, gone_at. */
    public final Sql removedTop;
    /** The rows below some rows of such a subtree, locked: id, parent, name, kind, gone_at. */
    public final ForIds<Long> removedChildren;
    public final Sql clearSubtreeGone;
    public final Sql ancestors;
    public final Sql selectByFileKey;
    /** Name, kind, file_key, size and mtime of a few entries directly in directory {@code :dir} with an identity. */
    public final Sql entriesToKnowADirectoryBy;
    public final Sql selectGoneByFingerprint;
    public final Sql moveRow;
    public final Sql lockFeed;
    public final Sql directoryMovedBetween;
    public final Sql maxFileId;
    public final Sql advanceFeed;
    public final Sql pruneFeed;
    public final Sql pruneChanges;
    public final Sql pruneChangeDirs;
    public final Sql insertChange;
    public final Sql insertChangeDir;
    public final Sql readFeed;
    public final Sql readChanges;
    public final Sql deleteChildren;
    public final Sql deleteDescendantsBelow;
    public final Sql countDescendants;
    public final Sql selectChild;
    public final Sql selectTopLevel;
    public final Sql markStale;
    public final Sql keepRow;
    public final Sql unmarkAll;
    /** The listed_by of directories {@code :d0…}, locked where write transactions run concurrently. */
    public final ForIds<Long> owners;
    /** The rows below directories {@code :d0…}, in {@link #FILE_COLUMNS} order. */
    public final ForIds<Long> childrenOf;
    /** The id, parent and name of the directory rows below directories {@code :d0…}. */
    public final ForIds<Long> childDirectoriesOf;
    /** The id, parent and name of rows {@code :d0…}: the paths of many directories, read a level at a time. */
    public final ForIds<Long> namesOf;
    /** Which of the file identities {@code :d0…} some row has: only those can be a moved entry's old row. */
    public final ForIds<Long> knownKeys;
    /** How many of scan {@code :scan}'s rows above {@code :floor} (its transaction's inserts) each of {@code :d0…} has. */
    public final ForIds<Long> insertedCounts;
    /**
     * Records as {@code ADDED} scan {@code :scan}'s rows above {@code :floor} below directories {@code :d0…}, numbered on from
     * {@code :seq} by parent and then id, each referring to the change_dirs row numbered like its directory's first.
     */
    public final ForIds<Long> recordInserted;
    /** The rows named {@code :d0…} below directory {@code :dir}, in {@link #FILE_COLUMNS} order. */
    public final ForIds<String> childrenNamed;
    /** How many of the rows named {@code :d0…} below {@code :dir} are scan {@code :scan}'s above {@code :floor}. */
    public final ForIds<String> insertedNamed;
    /**
     * Records as {@code ADDED} scan {@code :scan}'s rows above {@code :floor} named {@code :d0…} below {@code :dir},
     * numbered on from {@code :seq} by id, each referring to change_dirs row {@code :cdir}.
     */
    public final ForIds<String> recordInsertedNamed;
    /** How many rows below {@code :dir} a listing by scan {@code :scan} would find missing if it had not seen them. */
    public final Sql countListable;
    /** The next {@link #PAGE_ROWS} rows below {@code :dir} named after {@code :after}, by name. */
    public final Sql childrenAfter;
    /** The id of one row below {@code :dir}, any row (orphans too); none if the directory has no rows below it. */
    public final Sql anyChild;
    public static final int PAGE_ROWS = 1_024;
    /** How many entries {@link #entriesToKnowADirectoryBy} reads, each checked on disk until one is still there. */
    private static final int ENTRIES_TO_KNOW_A_DIRECTORY_BY = 8;
    /** The most rows one {@link #insertChildren} statement inserts. */
    public static final int INSERT_ROWS = 256;
    /**
     * Row {@code i}'s parameter names in {@link #insertChildren}: {@code parent0, name0, …}, and last {@code id0} (bound
     * only where the scan {@link #numbersNewRows}).
     */
    public static final String[][] ROW_PARAMS = java.util.stream.IntStream.range(0, INSERT_ROWS)
            .mapToObj(i -> java.util.stream.Stream.of("parent", "name", "kind", "size", "mtime", "link", "key",
                            "listed", "id")
                    .map(p -> p + i).toArray(String[]::new)).toArray(String[][]::new);
    /**
     * {@link DialectStatements#insertChildrenNumbered} by row count where the dialect has {@link
     * DialectStatements#lastFileId}, else {@link DialectStatements#insertChildrenReturning} where it has that, else
     * {@link DialectStatements#insertChildren}.
     */
    private final ByLength insertChildren;
    private final boolean insertsReturnIds;
    /** {@link DialectStatements#lastFileId}; null where the dialect has none. */
    public final Sql lastFileId;
    /** {@link Dialect#bulkLoader}; null where the dialect has none. */
    public final BulkLoader bulkLoader;
    /** {@link DialectStatements#analyzeFiles}; null where the dialect has none. */
    public final Sql analyzeFiles;

    public Statements(Dialect dialect, FsTables t) {
        this.t = t;
        DSLContext ctx = context(dialect);
        DialectStatements own = dialect.statements();
        Field<Long> scan = param("scan", Long.class);
        upsertChild = Sql.render(ctx, own.upsertChild(t));
        Query lastId = own.lastFileId(t);
        lastFileId = lastId == null ? null : Sql.render(ctx, lastId);
        insertsReturnIds = lastFileId == null && own.insertChildrenReturning(t, 1) != null;
        insertChildren = new ByLength(rows -> Sql.render(ctx, lastFileId != null ? own.insertChildrenNumbered(t, rows)
                : insertsReturnIds ? own.insertChildrenReturning(t, rows) : own.insertChildren(t, rows)), INSERT_ROWS);
        bulkLoader = dialect.bulkLoader(t);
        Query analyze = own.analyzeFiles(t);
        analyzeFiles = analyze == null ? null : Sql.render(ctx, analyze);
        upsertTopLevel = Sql.render(ctx, own.upsertTopLevel(t));
        claimDirectory = Sql.render(ctx, own.claimDirectory(t));
        claimDirectories = ForIds.ofIds(ids -> Sql.render(ctx, own.claimDirectories(t, t.id.in(ids))));
        claimedDirectories = ForIds.ofIds(ids -> Sql.render(ctx, ctx.select(t.id).from(t.files).where(t.id.in(ids))
                .and(t.listedBy.eq(scan)).and(t.kind.eq(inline("DIRECTORY")))));
        var updateOwnedChild = ctx.update(t.files)
                .set(t.fingerprint, t.keptIfUnchanged(t.fingerprint))
                .set(t.contentHash, t.keptIfUnchanged(t.contentHash)).set(t.kind, param("kind", String.class))
                .set(t.size, param("size", Long.class)).set(t.mtime, param("mtime", Long.class))
                .set(t.linkTarget, param("link", String.class)).set(t.fileKey, param("key", Long.class))
                .set(t.scanId, scan).set(t.stale, inline(0)).set(t.goneAt, inline(null, Long.class))
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan));
        updateChild = Sql.render(ctx, updateOwnedChild);
        updateLiveChild = Sql.render(ctx, updateOwnedChild.and(t.goneAt.isNull()));

        Field<Long> goneId = field(name("gone", "id"), Long.class);
        Field<Integer> goneDepth = field(name("gone", "depth"), Integer.class);
        Field<Long> cutoff = param("cutoff", Long.class);
        // Orphans past their retention whose parent is not one too: the tops of the subtrees the purge removes.
        Condition purgeable = t.goneAt.lt(cutoff).and(t.parent.isNull().or(t.parent.notIn(
                select(t.id).from(t.files).where(t.goneAt.lt(cutoff)))));
        countPurge = Sql.render(ctx, ctx.withRecursive(t.subtrees(purgeable, own))
                .select(org.jooq.impl.DSL.countDistinct(goneId).as("entries"),
                        org.jooq.impl.DSL.max(goneDepth).as("depth"))
                .from(table(name("gone"))));
        purgeBelow = Sql.render(ctx, own.deleteFiles(t, t.subtreeIdsDeeperThan(purgeable, own)));
        purge = Sql.render(ctx, own.deleteFiles(t, select(t.id).from(t.files).where(purgeable)));
        Condition staleOfScan = t.stale.eq(inline(1)).and(t.scanId.eq(scan));
        Field<Long> now = param("now", Long.class);
        staleDirectories = Sql.render(ctx, ctx.select(t.id, t.parent, t.name, t.kind).from(t.files)
                .where(staleOfScan).and(t.goneAt.isNull()).and(t.kind.eq(inline("DIRECTORY"))));
        staleFiles = Sql.render(ctx, own.lockedForWrite(ctx.select(t.id, t.parent, t.name, t.kind)
                .from(t.files).where(staleOfScan).and(t.goneAt.isNull()).and(t.kind.ne(inline("DIRECTORY")))));
        orphanStaleFiles = Sql.render(ctx, ctx.update(t.files).set(t.goneAt, now).set(t.stale, inline(0))
                .where(staleOfScan).and(t.goneAt.isNull()).and(t.kind.ne(inline("DIRECTORY"))));
        Condition top = t.id.eq(param("top", Long.class));
        subtreeRows = Sql.render(ctx, ctx.withRecursive(t.subtrees(top, own))
                .select(field(name("r", "id")), field(name("r", "parent")), field(name("r", "name")),
                        field(name("r", "kind")), field(name("r", "gone_at")), goneDepth)
                .from(table(name("gone"))).join(t.files.as("r")).on(field(name("r", "id"), Long.class).eq(goneId))
                .orderBy(goneDepth, field(name("r", "id"))));
        removedTop = Sql.render(ctx, own.lockedForWrite(ctx.select(t.id, t.kind, t.goneAt).from(t.files)
                .where(t.id.eq(param("top", Long.class)))));
        removedChildren = ForIds.ofIds(ids -> Sql.render(ctx, own.lockedForWrite(ctx.select(t.id, t.parent,
                t.name, t.kind, t.goneAt).from(t.files).where(t.parent.in(ids)))));
        setSubtreeGone = Sql.render(ctx, own.updateFiles(t, t.subtreeIds(top, own), java.util.Map.of(t.goneAt, now),
                t.goneAt.isNull()));
        clearSubtreeGone = Sql.render(ctx, own.updateFiles(t, t.subtreeIds(top, own),
                java.util.Map.of(t.goneAt, inline(null, Long.class)), t.goneAt.ge(param("since", Long.class))));
        ancestors = Sql.render(ctx, ctx.withRecursive(name("up").fields("id", "parent", "name", "depth").as(
                        select(t.id, t.parent, t.name, inline(0)).from(t.files).where(t.id.eq(param("id", Long.class)))
                                .unionAll(select(field(name("f", "id"), Long.class),
                                        field(name("f", "parent"), Long.class), field(name("f", "name"), String.class),
                                        field(name("up", "depth"), Integer.class).plus(inline(1)))
                                        .from(t.files.as("f")).join(table(name("up")))
                                        .on(field(name("f", "id"), Long.class)
                                                .eq(field(name("up", "parent"), Long.class))))))
                .select(field(name("up", "id"), Long.class), field(name("up", "name"), String.class))
                .from(table(name("up"))).orderBy(field(name("up", "depth")).desc()));
        selectByFileKey = Sql.render(ctx, selectFiles(ctx).where(t.fileKey.eq(param("key", Long.class))));
        entriesToKnowADirectoryBy = Sql.render(ctx, ctx.select(t.name, t.kind, t.fileKey, t.size, t.mtime)
                .from(t.files).where(t.parent.eq(param("dir", Long.class))).and(t.fileKey.isNotNull())
                .limit(inline(ENTRIES_TO_KNOW_A_DIRECTORY_BY)));
        moveRow = Sql.render(ctx, ctx.update(t.files)
                .set(t.parent, param("parent", Long.class)).set(t.name, param("name", String.class))
                .set(t.kind, param("kind", String.class)).set(t.size, param("size", Long.class))
                .set(t.mtime, param("mtime", Long.class)).set(t.linkTarget, param("link", String.class))
                .set(t.scanId, scan).set(t.stale, inline(0)).set(t.goneAt, inline(null, Long.class))
                .set(t.fileKey, param("key", Long.class))
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        selectGoneByFingerprint = Sql.render(ctx, selectFiles(ctx)
                .where(t.fingerprint.eq(param("fingerprint", String.class)))
                .and(t.kind.eq(inline("FILE"))).and(t.size.eq(param("size", Long.class)))
                .and(t.goneAt.isNotNull().or(t.stale.eq(inline(1)))));
        lockFeed = Sql.render(ctx, own.lockFeed(t));
        directoryMovedBetween = Sql.render(ctx, ctx.selectOne().from(t.changes)
                .where(t.changeSeq.gt(param("from", Long.class))).and(t.changeSeq.le(param("to", Long.class)))
                .and(t.changeType.eq(inline("MOVED"))).and(t.changeKind.eq(inline("DIRECTORY")))
                .and(t.changeScan.ne(param("scan", Long.class))).limit(inline(1)));
        maxFileId = Sql.render(ctx, ctx.select(org.jooq.impl.DSL.coalesce(org.jooq.impl.DSL.max(t.id), inline(0L)))
                .from(t.files));
        advanceFeed = Sql.render(ctx, ctx.update(t.feed).set(t.feedLastSeq, param("seq", Long.class))
                .where(t.feedId.eq(inline(1))));
        pruneFeed = Sql.render(ctx, ctx.update(t.feed).set(t.feedPrunedThrough, param("seq", Long.class))
                .where(t.feedId.eq(inline(1))).and(t.feedPrunedThrough.lt(param("seq", Long.class))));
        pruneChanges = Sql.render(ctx, ctx.deleteFrom(t.changes).where(t.changeSeq.le(param("seq", Long.class))));
        // Every change referring to a change_dirs row comes at or after it, in the same transaction.
        pruneChangeDirs = Sql.render(ctx, ctx.deleteFrom(t.changeDirs).where(t.changeDirId.lt(
                select(org.jooq.impl.DSL.coalesce(org.jooq.impl.DSL.min(t.changeDir),
                        param("seq", Long.class).plus(inline(1L)))).from(t.changes).asField())));
        insertChange = Sql.render(ctx, ctx.insertInto(t.changes, t.changeSeq, t.changeEntry, t.changeType,
                        t.changeKind, t.changeDir, t.changeName, t.changePreviousPath, t.changeScan, t.changeAt)
                .values(param("seq", Long.class), param("entry", Long.class), param("type", String.class),
                        param("kind", String.class), param("cdir", Long.class), param("name", String.class),
                        param("previous", String.class), scan, now));
        insertChangeDir = Sql.render(ctx, ctx.insertInto(t.changeDirs, t.changeDirId, t.changeDirPath)
                .values(param("id", Long.class), param("path", String.class)));
        readFeed = Sql.render(ctx, ctx.select(t.feedLastSeq, t.feedPrunedThrough).from(t.feed)
                .where(t.feedId.eq(inline(1))));
        org.jooq.Table<?> c = t.changes.as("c");
        org.jooq.Table<?> d = t.changeDirs.as("d");
        readChanges = Sql.render(ctx, ctx.select(field(name("c", "seq")), field(name("c", "entry")),
                        field(name("c", "change_type")), field(name("c", "kind")), field(name("d", "path")),
                        field(name("c", "name")), field(name("c", "previous_path")), field(name("c", "scan_id")),
                        field(name("c", "at")))
                .from(c).leftJoin(d).on(field(name("d", "id"), Long.class).eq(field(name("c", "dir"), Long.class)))
                .where(field(name("c", "seq"), Long.class).gt(param("after", Long.class)))
                .and(field(name("c", "seq"), Long.class).le(param("upto", Long.class)))
                .orderBy(field(name("c", "seq"))));
        Condition childrenOfDir = t.parent.eq(param("dir", Long.class));
        deleteChildren = Sql.render(ctx, ctx.deleteFrom(t.files).where(childrenOfDir));
        deleteDescendantsBelow = Sql.render(ctx, own.deleteFiles(t, t.subtreeIdsDeeperThan(childrenOfDir, own)));
        countDescendants = Sql.render(ctx, ctx.withRecursive(t.subtrees(childrenOfDir, own))
                .select(org.jooq.impl.DSL.countDistinct(goneId).as("entries"),
                        org.jooq.impl.DSL.max(goneDepth).as("depth"))
                .from(table(name("gone"))));

        selectChild = Sql.render(ctx, selectFiles(ctx).where(t.parent.eq(param("parent", Long.class)))
                .and(t.name.eq(param("name", String.class))));
        selectTopLevel = Sql.render(ctx, selectFiles(ctx).where(t.parent.isNull())
                .and(t.name.eq(param("name", String.class))));
        selectChildForWrite = Sql.render(ctx, own.lockedForWrite(selectFiles(ctx)
                .where(t.parent.eq(param("parent", Long.class))).and(t.name.eq(param("name", String.class)))));
        selectTopLevelForWrite = Sql.render(ctx, own.lockedForWrite(selectFiles(ctx).where(t.parent.isNull())
                .and(t.name.eq(param("name", String.class)))));
        markStale = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(1)).set(t.scanId, scan)
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        keepRow = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(0)).set(t.scanId, scan)
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        unmarkAll = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(0))
                .where(t.stale.eq(inline(1))).and(t.scanId.eq(scan)));
        // An orphan (found gone by a completed scan) is owned by nobody: what that newer scan saw stands.
        owners = ForIds.ofIds(ids -> Sql.render(ctx, own.lockedWhereConcurrent(ctx.select(t.id, t.listedBy)
                .from(t.files).where(t.id.in(ids)).and(notGone(t)))));
        childrenOf = ForIds.ofIds(ids -> Sql.render(ctx, selectFiles(ctx).where(t.parent.in(ids))));
        childDirectoriesOf = ForIds.ofIds(ids -> Sql.render(ctx, ctx.select(t.id, t.parent, t.name, t.scanId)
                .from(t.files)
                .where(t.parent.in(ids)).and(t.kind.eq(inline("DIRECTORY")))));
        namesOf = ForIds.ofIds(ids -> Sql.render(ctx, ctx.select(t.id, t.parent, t.name).from(t.files)
                .where(t.id.in(ids))), ForIds.MAX_KEYS);
        knownKeys = ForIds.ofIds(keys -> Sql.render(ctx, ctx.selectDistinct(t.fileKey).from(t.files)
                .where(t.fileKey.in(keys))), ForIds.MAX_KEYS);
        Field<Long> floor = param("floor", Long.class);
        insertedCounts = ForIds.ofIds(ids -> Sql.render(ctx, ctx.select(t.parent, DSL.count()).from(t.files)
                .where(t.parent.in(ids)).and(t.id.gt(floor)).and(t.scanId.eq(scan)).groupBy(t.parent)));
        recordInserted = ForIds.ofIds(ids -> {
            // Numbered by parent, then id, so each directory's rows get consecutive numbers and its change_dirs row
            // can be numbered by the first of them without a CASE over every directory of the list.
            Field<Long> seq = param("seq", Long.class).plus(DSL.rowNumber().over().orderBy(t.parent, t.id));
            Field<Long> firstOfDir = seq.minus(DSL.rowNumber().over().partitionBy(t.parent).orderBy(t.id))
                    .plus(inline(1L));
            return Sql.render(ctx, ctx.insertInto(t.changes, t.changeSeq, t.changeEntry, t.changeType,
                            t.changeKind, t.changeDir, t.changeName, t.changePreviousPath, t.changeScan, t.changeAt)
                    .select(select(seq, t.id, inline("ADDED"), t.kind, firstOfDir, t.name, inline(null, String.class),
                            scan, now).from(t.files).where(t.parent.in(ids)).and(t.id.gt(floor)).and(t.scanId.eq(scan))));
        });
        Condition inDir = t.parent.eq(param("dir", Long.class));
        childrenNamed = ForIds.ofNames(names -> Sql.render(ctx, selectFiles(ctx).where(inDir).and(t.name.in(names))));
        insertedNamed = ForIds.ofNames(names -> Sql.render(ctx, ctx.select(DSL.count()).from(t.files).where(inDir)
                .and(t.name.in(names)).and(t.id.gt(floor)).and(t.scanId.eq(scan))));
        recordInsertedNamed = ForIds.ofNames(names -> Sql.render(ctx, ctx.insertInto(t.changes, t.changeSeq,
                        t.changeEntry, t.changeType, t.changeKind, t.changeDir, t.changeName, t.changePreviousPath,
                        t.changeScan, t.changeAt)
                .select(select(param("seq", Long.class).plus(DSL.rowNumber().over().orderBy(t.id)), t.id,
                        inline("ADDED"), t.kind, param("cdir", Long.class), t.name, inline(null, String.class), scan,
                        now).from(t.files).where(inDir).and(t.name.in(names)).and(t.id.gt(floor))
                        .and(t.scanId.eq(scan)))));
        countListable = Sql.render(ctx, ctx.select(DSL.count()).from(t.files).where(inDir).and(t.goneAt.isNull())
                .and(t.scanId.lt(scan).or(t.scanId.eq(scan).and(t.stale.eq(inline(0))))));
        childrenAfter = Sql.render(ctx, selectFiles(ctx).where(inDir).and(t.name.gt(param("after", String.class)))
                .orderBy(t.name).limit(inline(PAGE_ROWS)));
        anyChild = Sql.render(ctx, ctx.select(t.id).from(t.files).where(inDir).limit(inline(1)));
    }

    /**
     * One statement over a list of directory ids {@code :d0, :d1, …}, rendered for list lengths that are powers of
     * two up to {@link #MAX_IDS} (so a handful of statements serve every group); {@link #bind} pads a shorter list
     * by repeating its last id, which changes no result.
     */
    public static final class ForIds<T> {
        /** The longest list of directories one statement takes: a group's ({@link Scan#GROUP_DIRECTORIES}). */
        public static final int MAX_IDS = Scan.GROUP_DIRECTORIES;
        private final ByLength byLength;

        /** @param max the longest list one statement takes, a power of two */
        private ForIds(Class<T> type, java.util.function.Function<java.util.List<Field<T>>, Sql> render, int max) {
            this.byLength = new ByLength(length -> {
                java.util.List<Field<T>> params = new java.util.ArrayList<>(length);
                for (int i = 0; i < length; i++) {
                    params.add(param(ID_PARAMS[i], type));
                }
                return render.apply(params);
            }, max);
        }

        static ForIds<Long> ofIds(java.util.function.Function<java.util.List<Field<Long>>, Sql> render) {
            return ofIds(render, MAX_IDS);
        }

        /** A statement over a list of ids, up to {@code max} of them (a power of two). */
        public static ForIds<Long> ofIds(java.util.function.Function<java.util.List<Field<Long>>, Sql> render,
                                         int max) {
            return new ForIds<>(Long.class, render, max);
        }

        /** A statement over a list of names, up to {@link #MAX_KEYS} of them. */
        static ForIds<String> ofNames(java.util.function.Function<java.util.List<Field<String>>, Sql> render) {
            return new ForIds<>(String.class, render, MAX_KEYS);
        }

        /** The longest list one statement takes. */
        public int max() {
            return byLength.max;
        }

        /** The statement for {@code count} ids (1 to {@link #max}), rendered the first time it is needed. */
        public Sql forCount(int count) {
            return byLength.forCount(count);
        }

        /** Binds {@code ids} (as long as {@link #forCount} was given) to {@code :d0…}, padding the rest. */
        public static Sql.Bound bind(Sql.Bound q, long[] ids, int count) throws java.sql.SQLException {
            return bind(count, i -> q.set(ID_PARAMS[i], ids[Math.min(i, count - 1)]), q);
        }

        /** Binds {@code names} (as many as {@link #forCount} was given) to {@code :d0…}, padding the rest. */
        public static Sql.Bound bind(Sql.Bound q, String[] names, int count) throws java.sql.SQLException {
            return bind(count, i -> q.set(ID_PARAMS[i], names[Math.min(i, count - 1)]), q);
        }

        private interface BindOne {
            public void bind(int i) throws java.sql.SQLException;
        }

        /** Binds every parameter of the length {@link #forCount}{@code (count)} rendered. */
        private static Sql.Bound bind(int count, BindOne each, Sql.Bound q) throws java.sql.SQLException {
            for (int i = 0; i < ByLength.lengthFor(count); i++) {
                each.bind(i);
            }
            return q;
        }

        /** The longest list any statement takes: the file identities of {@link #knownKeys}. */
        static final int MAX_KEYS = 512;

        /** The parameter names {@code d0, d1, …}, made once rather than per statement bound. */
        private static final String[] ID_PARAMS = java.util.stream.IntStream.range(0, MAX_KEYS)
                .mapToObj(i -> "d" + i).toArray(String[]::new);
    }

    /**
     * A statement rendered for lengths that are powers of two up to a maximum (a list of ids, rows of an insert),
     * each the first time it is needed, so a scan prepares a handful of them however its lists vary.
     */
    static final class ByLength {
        private final java.util.function.IntFunction<Sql> render;
        private final int max;
        private final Sql[] bySlot;

        /** @param max the longest length, a power of two */
        ByLength(java.util.function.IntFunction<Sql> render, int max) {
            this.render = render;
            this.max = max;
            this.bySlot = new Sql[Integer.numberOfTrailingZeros(max) + 1];
        }

        /** The statement of the shortest rendered length that takes {@code count} (1 to the maximum). */
        public Sql forCount(int count) {
            if (count < 1 || count > max) {
                throw new IllegalArgumentException(count + " items; 1 to " + max + " go in one statement");
            }
            int slot = Integer.numberOfTrailingZeros(lengthFor(count));
            Sql sql = bySlot[slot];
            if (sql == null) {
                // Rendering twice in a race is harmless: Sql is immutable and either copy serves.
                sql = render.apply(1 << slot);
                bySlot[slot] = sql;
            }
            return sql;
        }

        /** The shortest rendered length that takes {@code count}: the power of two at or above it. */
        static int lengthFor(int count) {
            return 1 << (32 - Integer.numberOfLeadingZeros(count - 1));
        }
    }

    /** Whether {@link #insertChildren} returns the new rows' ids. */
    public boolean insertsReturnIds() {
        return insertsReturnIds;
    }

    /** Whether the scan gives its new rows their ids ({@link #lastFileId}), binding them in {@link #insertChildren}. */
    public boolean numbersNewRows() {
        return lastFileId != null;
    }

    /** Whether the scan knows its new rows' ids as it inserts them (returned or its own), so none are read back. */
    public boolean knowsNewIds() {
        return insertsReturnIds || lastFileId != null;
    }

    /**
     * The insert of {@code rows} new rows, a power of two up to {@link #INSERT_ROWS}: a shorter list goes as a few of
     * these rather than padded, since a padded row would be a conflicting insert.
     */
    public Sql insertChildren(int rows) {
        if (Integer.bitCount(rows) != 1) {
            throw new IllegalArgumentException(rows + " rows; a power of two go in one statement");
        }
        return insertChildren.forCount(rows);
    }

    private org.jooq.SelectJoinStep<?> selectFiles(DSLContext ctx) {
        return ctx.select(Row.COLUMNS.stream().map(c -> field(name(c))).toList()).from(t.files);
    }

    /**
     * The row is not an orphan ({@code gone_at} is null), said so that no engine can read it through the gone_at
     * index: InnoDB indexes NULLs, so every live row sits under NULL there, and MariaDB, with the statistics of a
     * table still growing (cardinality 2 for every index until InnoDB recalculates them), read the owner check
     * through it, walking every live row with the ids as an index condition: up to 0.1 s per wave late in a 1M cold
     * scan, 2.9 s of its 20 s. For statements that pick their rows by another key.
     */
    public static Condition notGone(FsTables t) {
        return DSL.coalesce(t.goneAt, inline(0L)).eq(inline(0L));
    }

    /** The jOOQ context fsindex renders with: unquoted lower-case names, so hand-written DDL matches. */
    public static DSLContext context(Dialect dialect) {
        return DSL.using(dialect.sqlDialect(), new Settings()
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
                .withRenderNamedParamPrefix(":")
                .withExecuteLogging(false));
    }
}
