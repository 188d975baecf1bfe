package io.fsindex.core.spi;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import io.fsindex.core.internal.TableNames;
import org.jooq.CommonTableExpression;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Table;

/**
 * fsindex's tables and columns for one table prefix, as jOOQ objects for dialects to build statements from.
 * Column meanings are in {@code README.md}, section "Schema".
 */
public final class FsTables {
    /** The default table prefix. */
    public static final String DEFAULT_PREFIX = "fsindex_";

    public final String prefix;
    public final Table<Record> files;
    public final Table<Record> scans;
    public final Table<Record> schema;
    public final Table<Record> contents;
    public final Table<Record> changes;
    public final Table<Record> changeDirs;
    public final Table<Record> feed;

    public final Field<Long> id;
    public final Field<Long> parent;
    public final Field<String> name;
    public final Field<String> kind;
    public final Field<Long> size;
    public final Field<Long> mtime;
    public final Field<String> linkTarget;
    /** The scan that last wrote the row (an unchanged row keeps it); also the scan that owns its stale mark. */
    public final Field<Long> scanId;
    /** The newest scan that listed this directory's children (0 if none); the gate for descending into it. */
    public final Field<Long> listedBy;
    public final Field<Integer> stale;
    /** A 64-bit hash of the filesystem's identity of the entry (device and inode), or null where there is none. */
    public final Field<Long> fileKey;
    /** When a completed scan found the entry gone (millis); non-null marks an orphan kept for move detection. */
    public final Field<Long> goneAt;
    /** A cheap content fingerprint (hex SHA-256 of size, first and last blocks), or null if not computed. */
    public final Field<String> fingerprint;
    /** The hex SHA-256 of the whole content, a key of {@link #contents}, or null if not computed. */
    public final Field<String> contentHash;

    public final Field<String> contentsHash;
    public final Field<Long> contentsSize;
    public final Field<Long> contentsCreatedAt;
    /** When the collector last found the content unreferenced, or null if it was referenced then. */
    public final Field<Long> contentsUnusedSince;

    public final Field<Long> changeSeq;
    public final Field<Long> changeEntry;
    public final Field<String> changeType;
    public final Field<String> changeKind;
    /** The {@link #changeDirs} row of the directory holding the entry, or null for a top-level entry. */
    public final Field<Long> changeDir;
    /** The entry's name (a top-level entry's whole path). */
    public final Field<String> changeName;
    public final Field<Long> changeDirId;
    public final Field<String> changeDirPath;
    public final Field<String> changePreviousPath;
    public final Field<Long> changeScan;
    public final Field<Long> changeAt;

    public final Field<Integer> feedId;
    public final Field<Long> feedLastSeq;
    public final Field<Long> feedPrunedThrough;

    public final Field<Long> scanRowId;
    public final Field<String> scanRoot;
    public final Field<String> scanState;
    public final Field<Long> scanStartedAt;
    public final Field<Long> scanFinishedAt;
    public final Field<Long> scanAdded;
    public final Field<Long> scanUpdated;
    public final Field<Long> scanDeleted;
    public final Field<Long> scanErrors;
    public final Field<Long> scanMoved;
    public final Field<String> scanMessage;
    /** When a running scan last showed it is alive (millis); see {@code ScanRecord}. */
    public final Field<Long> scanHeartbeatAt;

    public final Field<Integer> schemaVersion;

    /** The tables' names as plain strings, which core also uses where it needs no jOOQ objects. */
    private final TableNames names;

    /**
     * Tables named with {@code prefix}, which must be a plain SQL identifier prefix (letters, digits, underscores).
     *
     * @throws IllegalArgumentException if it is not
     */
    public FsTables(String prefix) {
        this.names = new TableNames(prefix);
        this.prefix = prefix;
        files = table(name(names.filesName()));
        scans = table(name(names.scansName()));
        schema = table(name(names.schemaName()));
        contents = table(name(names.contentsName()));
        changes = table(name(names.changesName()));
        changeDirs = table(name(names.changeDirsName()));
        feed = table(name(names.feedName()));
        id = field(name("id"), Long.class);
        parent = field(name("parent"), Long.class);
        name = field(name("name"), String.class);
        kind = field(name("kind"), String.class);
        size = field(name("size"), Long.class);
        mtime = field(name("mtime"), Long.class);
        linkTarget = field(name("link_target"), String.class);
        scanId = field(name("scan_id"), Long.class);
        listedBy = field(name("listed_by"), Long.class);
        stale = field(name("stale"), Integer.class);
        fileKey = field(name("file_key"), Long.class);
        goneAt = field(name("gone_at"), Long.class);
        fingerprint = field(name("fingerprint"), String.class);
        contentHash = field(name("content_hash"), String.class);
        contentsHash = field(name("hash"), String.class);
        contentsSize = field(name("size"), Long.class);
        contentsCreatedAt = field(name("created_at"), Long.class);
        contentsUnusedSince = field(name("unused_since"), Long.class);
        changeSeq = field(name("seq"), Long.class);
        changeEntry = field(name("entry"), Long.class);
        changeType = field(name("change_type"), String.class);
        changeKind = field(name("kind"), String.class);
        changeDir = field(name("dir"), Long.class);
        changeName = field(name("name"), String.class);
        changeDirId = field(name("id"), Long.class);
        changeDirPath = field(name("path"), String.class);
        changePreviousPath = field(name("previous_path"), String.class);
        changeScan = field(name("scan_id"), Long.class);
        changeAt = field(name("at"), Long.class);
        feedId = field(name("id"), Integer.class);
        feedLastSeq = field(name("last_seq"), Long.class);
        feedPrunedThrough = field(name("pruned_through"), Long.class);
        scanRowId = field(name("id"), Long.class);
        scanRoot = field(name("root"), String.class);
        scanState = field(name("state"), String.class);
        scanStartedAt = field(name("started_at"), Long.class);
        scanFinishedAt = field(name("finished_at"), Long.class);
        scanAdded = field(name("added"), Long.class);
        scanUpdated = field(name("updated"), Long.class);
        scanDeleted = field(name("deleted"), Long.class);
        scanErrors = field(name("errors"), Long.class);
        scanMoved = field(name("moved"), Long.class);
        scanMessage = field(name("message"), String.class);
        scanHeartbeatAt = field(name("heartbeat_at"), Long.class);
        schemaVersion = field(name("version"), Integer.class);
    }

    /**
     * A recursive common table expression {@code gone(id, depth)}: every row scan {@code :scan} marked stale (depth 0)
     * and every row below one (its depth below it), i.e. what the sweep removes, each step joined as {@code own}
     * joins it ({@link DialectStatements#walkStep}). Use with {@code withRecursive}.
     */
    public CommonTableExpression<Record2<Long, Integer>> staleSubtrees(DialectStatements own) {
        return subtrees(stale.eq(org.jooq.impl.DSL.inline(1))
                .and(scanId.eq(org.jooq.impl.DSL.param("scan", Long.class))), own);
    }

    /**
     * A recursive common table expression {@code gone(id, depth)}: every row matching {@code anchor} (depth 0) and
     * every row below one, with its depth below it, each step joined as {@code own} joins it
     * ({@link DialectStatements#walkStep}). Use with {@code withRecursive}.
     */
    public CommonTableExpression<Record2<Long, Integer>> subtrees(org.jooq.Condition anchor, DialectStatements own) {
        Table<?> f = files.as("f");
        Field<Long> goneId = field(name("gone", "id"), Long.class);
        Field<Integer> goneDepth = field(name("gone", "depth"), Integer.class);
        return name("gone").fields("id", "depth").as(
                org.jooq.impl.DSL.select(id, org.jooq.impl.DSL.inline(0)).from(files).where(anchor)
                        .unionAll(org.jooq.impl.DSL.select(field(name("f", "id"), Long.class),
                                        goneDepth.plus(org.jooq.impl.DSL.inline(1)))
                                .from(own.walkStep(table(name("gone")), f,
                                        field(name("f", "parent"), Long.class).eq(goneId)))));
    }

    /** The ids (column {@code id}) of {@link #subtrees subtrees(anchor, own)}'s rows. */
    public org.jooq.Select<Record1<Long>> subtreeIds(org.jooq.Condition anchor, DialectStatements own) {
        return subtreeIdsWhere(anchor, own, org.jooq.impl.DSL.noCondition());
    }

    /**
     * The ids of the rows of {@link #subtrees subtrees(anchor, own)} more than {@code :depth} levels below an anchor
     * row.
     */
    public org.jooq.Select<Record1<Long>> subtreeIdsDeeperThan(org.jooq.Condition anchor, DialectStatements own) {
        return subtreeIdsWhere(anchor, own,
                field(name("gone", "depth"), Integer.class).gt(org.jooq.impl.DSL.param("depth", Integer.class)));
    }

    private org.jooq.Select<Record1<Long>> subtreeIdsWhere(org.jooq.Condition anchor, DialectStatements own,
                                                           org.jooq.Condition depth) {
        return org.jooq.impl.DSL.withRecursive(subtrees(anchor, own)).select(field(name("gone", "id"), Long.class))
                .from(table(name("gone"))).where(depth);
    }

    /**
     * For an update of a file row with the attributes {@code :kind}, {@code :size} and {@code :mtime}: the row's
     * {@code column} (a content value such as {@link #fingerprint}) if those equal what the row records, else NULL,
     * so a content value is kept only while the file looks unchanged. Assign it before kind, size and mtime: MySQL
     * evaluates assignments left to right, and later ones see the new values of earlier ones.
     */
    public <T> Field<T> keptIfUnchanged(Field<T> column) {
        org.jooq.Condition same = qualified(kind).eq(org.jooq.impl.DSL.param("kind", String.class))
                .and(qualified(size).eq(org.jooq.impl.DSL.param("size", Long.class)))
                .and(qualified(mtime).eq(org.jooq.impl.DSL.param("mtime", Long.class)));
        return org.jooq.impl.DSL.when(same, qualified(column));
    }

    private <T> Field<T> qualified(Field<T> column) {
        return field(name(filesName(), column.getName()), column.getType());
    }

    /** The file table's name. */
    public String filesName() {
        return names.filesName();
    }

    /** The scan table's name. */
    public String scansName() {
        return names.scansName();
    }

    /** The name of the one-row table scan ids are allocated from in start order. */
    public String scanIdsName() {
        return names.scanIdsName();
    }

    /** The content table's name. */
    public String contentsName() {
        return names.contentsName();
    }

    /** The change feed's table name. */
    public String changesName() {
        return names.changesName();
    }

    /** The table of directory paths the change feed refers to. */
    public String changeDirsName() {
        return names.changeDirsName();
    }

    /** The feed head's table name. */
    public String feedName() {
        return names.feedName();
    }

    /** The table of stored rules and recorded devices per directory (schema version 5). */
    public String scopesName() {
        return names.scopesName();
    }

    /** The schema-version table's name. */
    public String schemaName() {
        return names.schemaName();
    }
}
