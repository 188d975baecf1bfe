package io.fsindex.core.write;

import io.fsindex.core.feed.FeedReader;
import io.fsindex.core.content.ContentHasher;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileSink;
import io.fsindex.api.FileStat;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database-backed {@link FileSink}: applies one scan's listings with the concurrent-scan protocol described in
 * the README ("Guarantees"). Every method is one retried write transaction on the scan's own connection, whose
 * statements are prepared once per scan.
 *
 * <p>Writes only what changed. Claiming a directory ({@code listed_by := scan}) is one row write and marks nothing;
 * applying its listing first checks, in the same transaction, that no newer scan has claimed it since (the owner
 * check of {@link #applyWave}, one statement for a whole wave of listings), then diffs the listing against the
 * rows: new names are inserted, changed or stale rows
 * are updated, rows missing from the listing are marked stale for this scan, and unchanged rows are not written at
 * all (they keep the {@code scan_id} of whichever scan last changed them). Every other write below a directory
 * (a partial scan's trunk and root, a vanished directory, a removed root) takes the same guard on the parent, so an
 * older scan never writes a row whose parent a newer scan has listed: the newer scan saw that row, and what it saw
 * stands even where it wrote nothing.
 *
 * <p>Every change it makes to an entry is written to the change feed in the same transaction ({@link ChangeLog}),
 * and an entry found gone is kept as an invisible orphan for {@link FeedSettings#orphanRetention()} so that a later
 * listing finding the same file identity elsewhere moves the row, keeping its id ({@link #tryMove}).
 */
public final class SqlFileSink implements FileSink {
    private static final Logger LOG = LoggerFactory.getLogger(SqlFileSink.class);
    private final Database db;
    private final Statements st;
    private final Connection c;
    private final long scan;
    private final Walker walker;
    private final ScanListener listener;
    private final boolean deliverChanges;
    private final FeedSettings settings;
    /** False while the index was empty when the scan started: no row can then be a moved entry's old row. */
    private final boolean movesPossible;
    /** The largest id when the scan started: ids are never reused, so at least as many rows as the table held. */
    private final long maxIdAtStart;
    private final ChangeLog log = new ChangeLog();
    /** Whether a file without a platform identity may be recognised as moved by its content fingerprint. */
    private final boolean fingerprintMoves;
    private final ContentHasher hasher = new ContentHasher();
    /** Each statement prepared once on {@link #c} for the whole scan; closed by {@link #finish}. */
    private final Map<Sql, Sql.Bound> prepared = new IdentityHashMap<>();
    /**
     * Directories this scan inserted and claimed in one transaction and has not listed yet: no older scan may write
     * below them (this scan's claim is newer), and a newer scan that claims one owns its listing instead, so the only
     * rows that can be below one when this scan lists it are a newer partial scan's (the trunk down to its root, which
     * it writes without claiming), which this scan must leave alone anyway. So their listings read no existing rows,
     * and their new children go in by the engine's bulk loader where it can be used; a load that meets such a row
     * fails and the transaction is retried with inserts ({@link LoadRefused}). Held only where the dialect has a
     * loader; a directory leaves when it is listed, so the set is as big as the walk's frontier.
     */
    private final Set<Long> freshDirs = new HashSet<>();
    /** Set once a bulk load failed: the scan's retry, and the rest of it, insert with conflict handling instead. */
    private boolean loadRefused;

    /**
     * Whether the engine's bulk loader may be used: there is one, the server and driver allow loads, and no load has
     * failed in this scan.
     */
    boolean loaderUsable() {
        return st.bulkLoader != null && !loadRefused;
    }

    private interface LoaderUse {
        void run() throws SQLException;
    }

    /**
     * Runs {@code use}, one use of the bulk loader that sends {@code text}, and empties the text whatever happens; a
     * failure turns the loader off for the rest of the scan ({@link #loadRefused}) and has the transaction retried
     * ({@link LoadRefused}), since the inserts that take over handle what a load cannot.
     */
    private void usingLoader(LoadText text, LoaderUse use) throws SQLException {
        try {
            use.run();
        } catch (SQLException e) {
            if (!loadRefused) {
                LOG.info("scan {}: the {} bulk loader failed, so the transaction is retried and the rest of the scan"
                        + " inserts row by row: {}", scan, db.dialect.name(), e.toString());
            }
            loadRefused = true;
            throw e instanceof LoadRefused || db.isRetryable(e) ? e : new LoadRefused(e);
        } finally {
            text.clear();
        }
    }
    /** Rows sent through the bulk loader, for tests that must know it was used. */
    private long loadedRows;
    /** Rows this scan tried to insert, to decide whether the planner's statistics need refreshing at the end. */
    private long insertedRows;
    private final LoadText loadText = new LoadText();
    /** Rows removed before the sweep (contents of directories this scan found replaced by files), for the result. */
    private long removedEarly;
    private long removedInTransaction;

    public SqlFileSink(Database db, Statements st, Connection c, long scan, Walker walker, ScanListener listener,
                FeedSettings settings, boolean fingerprintMoves, int partEntries) throws SQLException {
        this.db = db;
        this.st = st;
        this.c = c;
        this.scan = scan;
        this.walker = walker;
        this.listener = listener;
        this.deliverChanges = wantsChanges(listener);
        this.settings = settings;
        this.fingerprintMoves = fingerprintMoves;
        this.heldChanges = 2 * partEntries;
        try (ResultSet rs = q(st.maxFileId).statement.executeQuery()) {
            maxIdAtStart = rs.next() ? rs.getLong(1) : 0;
        }
        movesPossible = maxIdAtStart > 0;
        loadRefused = st.bulkLoader != null && !st.bulkLoader.available(c);
    }

    /** True if the listener overrides {@link ScanListener#changed}, so reading the changes back is worth it. */
    private static boolean wantsChanges(ScanListener listener) {
        try {
            return listener.getClass().getMethod("changed", Change.class).getDeclaringClass() != ScanListener.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The statement prepared on this scan's connection, with no batch left over from a failed attempt. */
    private Sql.Bound q(Sql sql) throws SQLException {
        Sql.Bound b = prepared.get(sql);
        if (b == null) {
            b = sql.prepare(c);
            prepared.put(sql, b);
        } else {
            b.statement.clearBatch();
        }
        return b;
    }

    /** Rows this sink has bulk-loaded (see {@link #freshDirs}), counting those of transactions retried since. */
    long loadedRows() {
        return loadedRows;
    }

    /**
     * True if this scan may write the children of directory {@code dir}: its row exists and no newer scan has listed
     * it. On PostgreSQL and InnoDB the read share-locks the row until the transaction ends, so no newer scan can claim
     * the directory before this transaction's writes below it are committed.
     */
    private boolean mayWriteUnder(long dir) throws SQLException {
        try (ResultSet rs = forIds(st.owners, new long[] {dir}, 1).statement.executeQuery()) {
            return rs.next() && rs.getLong(2) <= scan;
        }
    }

    @Override
    public Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath) {
        return write(conn -> {
            long parent = 0;
            long added = 0;
            Path path = null;
            for (WalkedEntry e : trunk) {
                path = path == null ? Path.of(e.name()) : path.resolve(e.name());
                Row before = findForWrite(parent, e.name());
                Row row = upsertAndFind(parent, e, before, path);
                if (row == null || !row.isDirectory()) {
                    // Missing, or recorded as a non-directory by a newer scan: nothing may be hung under it.
                    return new Applied(List.of(), added, 0, 0, 0, 1);
                }
                added += recordUpsert(before, row, e, path) == ChangeType.ADDED ? 1 : 0;
                parent = row.id();
            }
            Row before = findForWrite(parent, root.name());
            Row row = upsertAndFind(parent, root, before, rootPath);
            if (row == null) {
                return new Applied(List.of(), added, 0, 0, 0, 1);
            }
            // The root's data may belong to a newer scan that only passed through it as trunk; that must not stop
            // this scan from listing it. Only the claim decides whether this scan descends.
            boolean ours = row.scanId() == scan;
            ChangeType change = recordUpsert(before, row, root, rootPath);
            long rootAdded = change == ChangeType.ADDED ? 1 : 0;
            long rootModified = change == ChangeType.MODIFIED ? 1 : 0;
            long rootUnchanged = ours && change == null ? 1 : 0;
            long rootSkipped = ours ? 0 : 1;
            boolean descend = root.stat().isDirectory() && claimOne(row.id());
            if (!descend) {
                return new Applied(List.of(), added + rootAdded, rootModified, 0, rootUnchanged,
                        root.stat().isDirectory() ? 1 : rootSkipped);
            }
            rootIsFresh(row.id());
            return new Applied(List.of(new Directory(row.id(), parent, root.name(), rootPath)), added + rootAdded,
                    rootModified, 0, rootUnchanged, rootSkipped);
        });
    }

    /**
     * Once this scan has claimed its root, counts the root among {@link #freshDirs} if no row is below it (a cold
     * scan's root, or one found empty): its listing then goes the way of any directory this scan inserted, by the
     * bulk loader, part by part for a huge root as for a huge directory below it. Read after the claim, whose row
     * lock waited for any older scan still writing below the root (each holds a share lock on it from its owner
     * check until it commits), so the read sees such rows; none can be written below it afterwards but a newer
     * partial scan's trunk, which a fresh directory's listing leaves alone.
     */
    private void rootIsFresh(long root) throws SQLException {
        if (st.bulkLoader == null) {
            return;
        }
        try (ResultSet rs = q(st.anyChild).set("dir", root).statement.executeQuery()) {
            if (rs.next()) {
                freshDirs.remove(root);             // a retried transaction may have found it empty
            } else {
                freshDirs.add(root);
            }
        }
    }

    /** Records what upserting {@code e} over {@code before} did to {@code after}, if this scan changed it. */
    private ChangeType recordUpsert(Row before, Row after, WalkedEntry e, Path path) throws SQLException {
        if (after.scanId() != scan || e.stat() == null) {
            return null;
        }
        ChangeType type = before == null || before.orphan() ? ChangeType.ADDED
                : before.sameAs(e.stat()) ? null : ChangeType.MODIFIED;
        if (type != null) {
            log.change(after.id(), type, after.kind(), path, null);
        }
        return type;
    }

    /**
     * Called before this scan upserts {@code now} over {@code old}: if that turns a directory row into another kind,
     * lists the directory as empty first. It is claimed, so no older scan's late listing of it can insert children any
     * more, and its children go at once, since nothing can exist below a file (deferring that to the sweep would
     * leave them visible to lookups meanwhile, and forever if this scan failed). Only where old.scan_id <= scan and
     * (checked by every caller first) no newer scan has listed old's parent: a newer scan that claimed old would have
     * done so listing the parent, or as its own root, which it writes first; so no newer scan's rows are below it.
     */
    private void emptyIfNoLongerDirectory(Row old, FileStat now, Path path) throws SQLException {
        if (!old.isDirectory() || now.isDirectory() || old.scanId() > scan) {
            return;
        }
        log.settleAdded();                      // its subtree may hold rows this transaction inserted
        // Already claimed by this scan: claiming again changes nothing, which MySQL reports as no row affected.
        if (old.listedBy() != scan) {
            Sql.Bound claim = q(st.claimDirectory);
            if (claim.set("dir", old.id()).set("scan", scan).statement.executeUpdate() == 0) {
                return;
            }
        }
        // Counted by what was in the index: orphans below it were counted when they were found gone.
        removedInTransaction += reportRemoved(old.id(), () -> path, false);
        deleteSubtrees(st.countDescendants, st.deleteDescendantsBelow, st.deleteChildren, "dir", old.id());
    }

    /**
     * Upserts one trunk or root entry and reads its row back; null if the row is missing (a newer scan covers it).
     * Writes nothing where a newer scan has listed the parent: that scan saw this entry, and its view stands.
     */
    private Row upsertAndFind(long parent, WalkedEntry e, Row old, Path path) throws SQLException {
        if (parent != 0 && !mayWriteUnder(parent)) {
            return old;
        }
        if (old != null) {
            emptyIfNoLongerDirectory(old, e.stat(), path);
        }
        bindEntry(q(parent == 0 ? st.upsertTopLevel : st.upsertChild), parent, e.name(), e.stat())
                .statement.executeUpdate();
        return find(parent, e.name());
    }

    private Row find(long parent, String name) throws SQLException {
        return find(parent == 0 ? st.selectTopLevel : st.selectChild, parent, name);
    }

    /**
     * {@link #find} for a row this transaction is about to write, locked where writers run at once: an older scan's
     * sweep taking it out meanwhile is waited for and seen, so what the write did is recorded against what the row
     * was when written (a row the sweep took out comes back as added, not as unchanged or modified).
     */
    private Row findForWrite(long parent, String name) throws SQLException {
        return find(parent == 0 ? st.selectTopLevelForWrite : st.selectChildForWrite, parent, name);
    }

    private Row find(Sql select, long parent, String name) throws SQLException {
        Sql.Bound find = q(select);
        find.set("name", name);
        if (parent != 0) {
            find.set("parent", parent);
        }
        try (ResultSet rs = find.statement.executeQuery()) {
            return rs.next() ? Row.read(rs) : null;
        }
    }

    @Override
    public Applied apply(Directory dir, List<WalkedEntry> entries) {
        return write(conn -> applyWave(List.of(new Listing(dir, entries))).get(0));
    }

    /** Applies all the listings in one transaction: fewer commits for many small directories. */
    @Override
    public List<Applied> applyAll(List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return applyGroup(dirs.stream().map(Directory::path).toList(), dirs, listings).stream()
                .map(GroupResult::applied).toList();
    }

    /** Applies the listings in one transaction, as {@link #applyGroup} does. */
    @Override
    public List<Applied> applyListings(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return applyGroup(paths, dirs, listings).stream().map(GroupResult::applied).toList();
    }

    /** Applies each part in a transaction of its own, as {@link #applyPart} does. */
    @Override
    public ListingInParts applyInParts(Directory dir) {
        PartTally tally = new PartTally();
        return new ListingInParts() {
            @Override
            public Applied applyPart(List<WalkedEntry> part, boolean last) {
                return SqlFileSink.this.applyPart(dir, part, tally, last);
            }

            @Override
            public Applied applied() {
                return tally.applied();
            }
        };
    }

    /** One listing of a group and what applying it did; both null if it was not claimed, so not applied. */
    record GroupResult(Directory dir, Applied applied) {
    }

    /**
     * Applies listings in one transaction, where a directory may have been claimed earlier in the same group:
     * {@code dirs.get(i)} is the directory if it was claimed before, or null to take it from the subdirectories
     * another listing of this group claims ({@code paths.get(i)} names it then). A listing whose directory no listing
     * of the group claimed is not applied.
     *
     * <p>The listings go in waves, each wave applied with one statement per step for all its directories (see
     * {@link #applyWave}): first every listing whose directory is known, then those whose directories the first
     * wave claimed, and so on. Listings of one wave are never of a directory and its ancestor (a directory is claimed
     * only by its parent's listing), so applying them together does what applying them one by one would.
     */
    List<GroupResult> applyGroup(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return write(conn -> {
            int n = paths.size();
            GroupResult[] out = new GroupResult[n];
            Map<Path, Directory> claimedHere = new HashMap<>();
            List<Integer> wave = new ArrayList<>();
            List<Listing> waveListings = new ArrayList<>();
            do {
                wave.clear();
                waveListings.clear();
                for (int i = 0; i < n; i++) {
                    Directory dir = out[i] != null ? null
                            : dirs.get(i) != null ? dirs.get(i) : claimedHere.remove(paths.get(i));
                    if (dir != null && wave.size() < Statements.ForIds.MAX_IDS) {
                        wave.add(i);
                        waveListings.add(new Listing(dir, listings.get(i)));
                    } else if (dir != null && dirs.get(i) == null) {
                        claimedHere.put(paths.get(i), dir);     // the next wave takes it
                    }
                }
                List<Applied> applied = applyWave(waveListings);
                for (int w = 0; w < wave.size(); w++) {
                    Applied a = applied.get(w);
                    out[wave.get(w)] = new GroupResult(waveListings.get(w).dir, a);
                    for (Directory sub : a.subdirectories()) {
                        claimedHere.put(sub.path(), sub);
                    }
                }
            } while (!wave.isEmpty());
            List<GroupResult> results = new ArrayList<>(n);
            for (GroupResult r : out) {
                results.add(r != null ? r : new GroupResult(null, null));
            }
            return results;
        });
    }

    /**
     * What the parts of one directory's listing applied so far add up to ({@link #applyPart}): how many rows they
     * leave listable, and whether this scan owned the directory for all of them.
     */
    static final class PartTally {
        private long listable;
        private boolean lost;
        private long added, modified, moved, unchanged, skipped;

        /** What the whole listing did, once its last part is applied; its subdirectories went with each part. */
        Applied applied() {
            return new Applied(List.of(), added, modified, moved, unchanged, skipped);
        }

        private void add(Applied a) {
            added += a.added();
            modified += a.modified();
            moved += a.moved();
            unchanged += a.unchanged();
            skipped += a.skipped();
        }
    }

    /**
     * Applies one part of a directory's listing in its own transaction, so that a directory of millions of entries
     * is never held whole: the part's own names are compared with their rows and written as {@link #applyGroup}
     * would. Rows of names no part listed (missing: gone from the disk) are looked for with the last part: if the
     * directory has as many listable rows as the parts accounted for, none is; otherwise its rows are paged through
     * by name and the ones whose file no longer exists are marked stale. A part of a directory a newer scan has
     * claimed meanwhile is not applied, and then neither is any later part.
     */
    Applied applyPart(Directory dir, List<WalkedEntry> part, PartTally parts, boolean last) {
        if (parts.lost) {
            return new Listing(dir, part).notOwned();
        }
        Listing applied = write(conn -> {
            Listing l = new Listing(dir, part, true);
            applyWave(List.of(l));
            if (l.owned && last) {
                markMissing(dir, parts.listable + l.listable());
            }
            return l;
        });
        Applied a = applied.result();
        parts.lost = !applied.owned;
        if (last || parts.lost) {
            freshDirs.remove(dir.id());
        }
        parts.listable += applied.owned ? applied.listable() : 0;
        parts.add(a);
        return a;
    }

    /**
     * True for a row a listing by this scan marks stale if it does not list the name: not an orphan, and written by an
     * older scan or by this one without a stale mark (what {@link Statements#countListable} counts).
     */
    private boolean isListable(boolean orphan, long scanId, boolean stale) {
        return !orphan && (scanId < scan || (scanId == scan && !stale));
    }

    /** Marks stale the rows below {@code dir} whose file is gone, unless it has just the {@code listed} rows. */
    private void markMissing(Directory dir, long listed) throws SQLException {
        long rows;
        try (ResultSet rs = q(st.countListable).set("dir", dir.id()).set("scan", scan).statement.executeQuery()) {
            rs.next();
            rows = rs.getLong(1);
        }
        if (rows == listed) {
            return;
        }
        LongList missing = new LongList();
        String after = "";
        for (int page = Statements.PAGE_ROWS; page == Statements.PAGE_ROWS; ) {
            page = 0;
            try (ResultSet rs = q(st.childrenAfter).set("dir", dir.id()).set("after", after).statement
                    .executeQuery()) {
                while (rs.next()) {
                    page++;
                    after = rs.getString(3);
                    if (isListable(rs.getLong(12) != 0, rs.getLong(8), rs.getInt(10) != 0)
                            && !stillThere(dir.path().resolve(after))) {
                        missing.add(rs.getLong(1));
                    }
                }
            }
        }
        executeInChunks(q(st.markStale), missing, "id");
    }

    /** How many rows one executeBatch sends at most, so a huge directory's batch never holds all its rows. */
    static final int BATCH_ROWS = 2_048;

    /**
     * How many changes a transaction holds in memory before it locks the feed head and writes them as they come:
     * twice a part of a huge directory's listing (the scan's {@link Scan#partEntries}), so a group's or a part's
     * changes are all held (a few MiB at most) and only a sweep of a larger subtree takes the head early. Less would
     * make a transaction whose new rows' ids are known (SQLite, MariaDB, PostgreSQL's loaded rows) take the head half
     * way through its rows and keep other scans' transactions waiting while it writes the rest.
     */
    private final int heldChanges;

    /**
     * One directory's listing while it is applied: the listing and, per entry, what its existing row needs.
     * The existing children are streamed once and compared on the fly against the listing (by name, through an
     * index of the listing's own name strings), so the memory used beyond the listing itself is a few bytes per
     * entry, not a row object each.
     */
    private final class Listing {
        final Directory dir;
        final List<WalkedEntry> entries;
        /**
         * True for one part of a directory's listing ({@link #applyPart}): only the part's own names are read and
         * compared, and what is missing is found once all parts are in.
         */
        final boolean part;
        /** For a part, the names it tried to insert: its added rows are found by name, not by directory. */
        final List<String> triedNames;
        boolean owned;
        /** Rows of unreadable entries that stay listable (see {@link #listable}). */
        long keptUnreadable;
        /** The listing's names by position, once {@link #byName()} first needs them. */
        private NameIndex byName;
        long[] ids;                             // the existing row's id, 0 for none (a new name)
        byte[] seen;                            // what the existing row needs
        final LongList missing = new LongList();
        final LongList keep = new LongList();
        final List<Row> converted = new ArrayList<>();
        long skipped, unchanged, moved, back, modified, revived, triedInserting, inserted;
        final List<Directory> subdirectories = new ArrayList<>();

        Listing(Directory dir, List<WalkedEntry> entries) {
            this(dir, entries, false);
        }

        /** The directory is one of {@link #freshDirs}: nothing but this listing's rows can be below it. */
        boolean fresh;
        /** Its new rows went to the bulk loader, with their ids (set by {@link #insertNew}). */
        boolean loaded;

        Listing(Directory dir, List<WalkedEntry> entries, boolean part) {
            this.dir = dir;
            this.entries = entries;
            this.part = part;
            this.triedNames = part ? new ArrayList<>() : null;
        }

        /**
         * The order to insert entries in: as listed, except for a part of a huge directory, which goes in name order
         * so that its rows go into the (parent, name) index in one sweep instead of at random places all over it.
         */
        int[] insertOrder() {
            java.util.stream.IntStream order = java.util.stream.IntStream.range(0, entries.size());
            return part ? order.boxed().sorted(java.util.Comparator.comparing(i -> entries.get(i).name()))
                    .mapToInt(Integer::intValue).toArray() : order.toArray();
        }

        /** Records that the row for entry {@code i} is about to be inserted. */
        void tryInserting(int i) {
            triedInserting++;
            if (part) {
                triedNames.add(entries.get(i).name());
            }
        }

        /**
         * How many of this listing's rows are listable once it is applied (counted by {@link
         * Statements#countListable}): every row it wrote or left unchanged, none a newer scan wrote.
         */
        long listable() {
            return unchanged + modified + revived + moved + inserted + keptUnreadable;
        }

        /** Prepares the comparison with the rows, once the scan is known to own the directory. */
        void index() {
            int n = entries.size();
            ids = new long[n];
            seen = new byte[n];
        }

        /**
         * The listing's names, indexed when the first existing row is compared: a new directory's listing (every
         * listing of a cold scan) has no rows to compare, and indexing its names anyway was about 4 % of the samples
         * of a SQLite cold scan's scan thread.
         */
        NameIndex byName() {
            if (byName == null) {
                byName = new NameIndex(entries);
            }
            return byName;
        }

        /** Compares one existing child row ({@link Statements#FILE_COLUMNS}) with the listing. */
        void compare(ResultSet rs) throws SQLException {
            long id = rs.getLong(1);
            String name = rs.getString(3);
            long scanId = rs.getLong(8);
            boolean stale = rs.getInt(10) != 0;
            boolean orphan = rs.getLong(12) != 0;
            log.requireNotInsertedMeanwhile(id, scanId);
            int at = byName().indexOf(name);
            if (at < 0) {
                // Missing from the listing: gone, unless a newer scan wrote it (or this scan marked it already, or
                // it is an orphan, found gone before).
                if (isListable(orphan, scanId, stale)) {
                    missing.add(id);
                }
                return;
            }
            int i = at;
            ids[i] = id;
            WalkedEntry e = entries.get(i);
            if (!e.isReadable()) {
                // Exists, attributes unknown: keep the row as it is; only take over an older scan's stale mark, so
                // that scan does not delete what this newer scan has seen exist.
                if (stale && scanId < scan) {
                    keep.add(id);
                }
                if (isListable(orphan, scanId, stale)) {
                    keptUnreadable++;
                }
                return;
            }
            String kind = rs.getString(4);
            if (scanId > scan) {
                seen[i] = NEWER;                // a newer scan wrote this row; what it recorded stands
                skipped++;
                return;
            }
            FileStat stat = e.stat();
            boolean same = kind.equals(stat.kind().name()) && rs.getLong(5) == stat.size()
                    && rs.getLong(6) == stat.mtimeNanos() && Objects.equals(rs.getString(7), stat.linkTarget());
            Long storedKey = Row.nullableLong(rs, 11);
            Long key = keyOf(stat);
            if (!same && FileKind.DIRECTORY.name().equals(kind) && !stat.isDirectory()) {
                converted.add(Row.read(rs));
            }
            if (orphan) {
                seen[i] = REVIVED;              // back where it was found gone: in the index again
            } else if (!same || (storedKey != null && key != null && !storedKey.equals(key))) {
                seen[i] = CHANGED;              // other attributes, or another file under the same name
            } else if (stale || !Objects.equals(storedKey, key)) {
                seen[i] = REWRITE;              // only the stale mark to take back, or the identity to record
            } else {
                seen[i] = UNCHANGED;            // nothing to write: the row already says what this scan saw
                unchanged++;
            }
        }

        Path pathOf(int i) {
            return dir.path().resolve(entries.get(i).name());
        }

        private String dirPath;

        /** The directory's path as the feed stores it, made once. */
        String dirPath() {
            if (dirPath == null) {
                dirPath = dir.path().toString();
            }
            return dirPath;
        }

        Applied applied() {
            return new Applied(subdirectories, revived + back + inserted, modified, moved, unchanged,
                    skipped + Math.max(0, triedInserting - inserted));
        }

        /** What applying this listing did, once its wave is applied. */
        Applied result() {
            return owned ? applied() : notOwned();
        }

        /** What applying nothing reports: every readable entry skipped (a newer scan's listing decides). */
        Applied notOwned() {
            return new Applied(List.of(), 0, 0, 0, 0, entries.stream().filter(WalkedEntry::isReadable).count());
        }
    }

    /**
     * Applies the listings of up to {@link Statements.ForIds#MAX_IDS} directories, none an ancestor of another,
     * inside the caller's transaction: each step (the owner check, reading the existing rows, inserting, updating,
     * recording the changes, claiming subdirectories) is one statement or one batch for all of them, so a server
     * sees a few round trips per wave instead of a few per directory. See the class comment for what a listing does.
     */
    private List<Applied> applyWave(List<Listing> wave) throws SQLException {
        if (wave.isEmpty()) {
            return List.of();
        }
        long[] dirIds = wave.stream().mapToLong(l -> l.dir.id()).toArray();
        Map<Long, Long> listedBy = new HashMap<>();
        try (ResultSet rs = forIds(st.owners, dirIds, dirIds.length).statement.executeQuery()) {
            while (rs.next()) {
                listedBy.put(rs.getLong(1), rs.getLong(2));
            }
        }
        List<Listing> owned = new ArrayList<>();
        Map<Long, Listing> byDir = new HashMap<>();
        for (Listing l : wave) {
            // Listed once (a huge directory part by part, leaving with its last part or when lost).
            l.fresh = l.part ? freshDirs.contains(l.dir.id()) : freshDirs.remove(l.dir.id());
            Long by = listedBy.get(l.dir.id());
            if (by != null && by <= scan) {
                // Not claimed since by a newer scan (nor gone): this scan's listing applies.
                l.index();
                l.owned = true;
                owned.add(l);
                byDir.put(l.dir.id(), l);
            }
        }
        if (!owned.isEmpty()) {
            applyOwned(owned, byDir);
        }
        List<Applied> out = new ArrayList<>(wave.size());
        for (Listing l : wave) {
            out.add(l.result());
        }
        return out;
    }

    /** The one listing of {@code owned} if it is a part of a directory's listing ({@link #applyPart}), else null. */
    private static Listing onlyPart(List<Listing> owned) {
        return owned.size() == 1 && owned.get(0).part ? owned.get(0) : null;
    }

    private void applyOwned(List<Listing> owned, Map<Long, Listing> byDir) throws SQLException {
        // A directory this scan inserted (freshDirs) has no rows to compare its listing with: none is read.
        Listing part = onlyPart(owned);
        if (part != null) {
            if (!part.fresh) {
                inPieces(part.entries.stream().map(WalkedEntry::name).toList(), st.childrenNamed, (names, n) -> {
                    try (ResultSet rs = forNames(st.childrenNamed, part.dir.id(), names, n).statement
                            .executeQuery()) {
                        while (rs.next()) {
                            part.compare(rs);
                        }
                    }
                });
            }
        } else {
            long[] dirIds = owned.stream().filter(l -> !l.fresh).mapToLong(l -> l.dir.id()).toArray();
            if (dirIds.length > 0) {
                try (ResultSet rs = forIds(st.childrenOf, dirIds, dirIds.length).statement.executeQuery()) {
                    while (rs.next()) {
                        byDir.get(rs.getLong(2)).compare(rs);
                    }
                }
            }
        }
        LongList keep = new LongList();
        LongList missing = new LongList();
        for (Listing l : owned) {
            for (Row old : l.converted) {
                emptyIfNoLongerDirectory(old, l.entries.get(l.byName().indexOf(old.name())).stat(),
                        l.dir.path().resolve(old.name()));
            }
            l.byName = null;                    // no longer needed; let a huge directory's index go
            keep.addAll(l.keep);
            missing.addAll(l.missing);
        }
        executeInChunks(q(st.keepRow), keep, "id");
        executeInChunks(q(st.markStale), missing, "id");
        if (movesPossible) {
            findMoves(owned);
        }
        insertNew(owned);
        updateChanged(owned);
        if (!st.insertsReturnIds()) {
            // Only listings that inserted rows without learning their ids have them to record: an unchanged rescan
            // skips both statements.
            List<Listing> readBack = owned.stream().filter(l -> !l.loaded && l.triedInserting > 0).toList();
            if (!readBack.isEmpty()) {
                log.inserted(readBack);
            }
        }
        claimSubdirectories(owned);
    }

    /**
     * Looks for a moved entry's old row for every new name of the listings that has an identity to go by. One query
     * per few hundred identities first finds which of them any row has at all, so a new subtree (whose identities no
     * row has) costs a few statements, not one per entry.
     */
    private void findMoves(List<Listing> owned) throws SQLException {
        LongList keys = new LongList();
        Long[][] keyOfNew = new Long[owned.size()][];  // each new entry's identity, worked out once
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            keyOfNew[w] = new Long[l.entries.size()];
            for (int i = 0; i < l.entries.size(); i++) {
                WalkedEntry e = l.entries.get(i);
                Long key = l.ids[i] == 0 && e.isReadable() ? keyOf(e.stat()) : null;
                if (key != null) {
                    keys.add(key);
                    keyOfNew[w][i] = key;
                }
            }
        }
        Set<Long> known = knownKeys(keys);
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            Set<Long> above = null;
            for (int i = 0; i < l.entries.size(); i++) {
                WalkedEntry e = l.entries.get(i);
                if (l.ids[i] != 0 || !e.isReadable()) {
                    continue;
                }
                Long key = keyOfNew[w][i];
                boolean byKey = key != null && known.contains(key);
                if (!byKey && !(key == null && fingerprintMoves && e.stat().kind() == FileKind.FILE)) {
                    continue;
                }
                if (above == null) {
                    above = new HashSet<>(locate(l.dir.id()).ids());
                }
                Moved m = byKey ? tryMove(l.dir, e, above) : tryMoveByFingerprint(l.dir, e);
                if (m != null) {
                    l.ids[i] = m.id();
                    l.seen[i] = MOVED;
                    l.moved++;
                    l.back += m.descendantsBack();
                }
            }
        }
    }

    /** Which of {@code keys} some row of the table has as its file identity. */
    private Set<Long> knownKeys(LongList keys) throws SQLException {
        Set<Long> known = new HashSet<>();
        int per = st.knownKeys.max();
        long[] chunk = new long[per];
        for (int from = 0; from < keys.size(); from += per) {
            int n = Math.min(per, keys.size() - from);
            for (int i = 0; i < n; i++) {
                chunk[i] = keys.get(from + i);
            }
            try (ResultSet rs = forIds(st.knownKeys, chunk, n).statement.executeQuery()) {
                while (rs.next()) {
                    known.add(rs.getLong(1));
                }
            }
        }
        return known;
    }

    /**
     * Inserts every new name of the listings, a few hundred a statement, or by the engine's bulk loader below a
     * directory this scan inserted ({@link #freshDirs}); a name a newer scan inserted meanwhile is left alone.
     * Where the insert returns the new rows' ids, each row that went in is recorded as added from them; elsewhere
     * the server records them from the rows, counted by {@link ChangeLog#inserted} or, for loaded rows, here.
     */
    private void insertNew(List<Listing> owned) throws SQLException {
        Listing[] rowOf = new Listing[Statements.INSERT_ROWS];
        int[] entryOf = new int[Statements.INSERT_ROWS];
        int n = 0;
        boolean loading = loaderUsable();
        LongList toLoad = new LongList();      // listing << 32 | entry, in each listing's insert order
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            l.loaded = loading && l.fresh;
            for (int i : l.insertOrder()) {
                WalkedEntry e = l.entries.get(i);
                if (!e.isReadable() || l.ids[i] != 0) {
                    continue;
                }
                l.tryInserting(i);
                insertedRows++;
                if (l.loaded) {
                    toLoad.add(((long) w << 32) | i);
                    continue;
                }
                rowOf[n] = l;
                entryOf[n++] = i;
                if (n == rowOf.length) {
                    insertRows(rowOf, entryOf, 0, n);
                    n = 0;
                }
            }
        }
        for (int from = 0; from < n; ) {
            int rows = Integer.highestOneBit(n - from);     // the rest as a few statements of 2^k rows
            insertRows(rowOf, entryOf, from, rows);
            from += rows;
        }
        if (toLoad.size() > 0) {
            loadRows(owned, toLoad);
        }
    }

    /**
     * Loads the new rows {@code rows} names ({@code listing << 32 | entry}), so nothing reads them back: with ids taken
     * for them first, or, where the engine numbers loaded rows itself, with the ids it tells afterwards. A directory's
     * id is then known for its claim, and each row's change is recorded from what the scan holds (and loaded into the
     * feed the same way).
     */
    private void loadRows(List<Listing> owned, LongList rows) throws SQLException {
        usingLoader(loadText, () -> {
            long[] ids = st.bulkLoader.newIds(c, rows.size());
            for (int k = 0; k < rows.size(); k++) {
                Listing l = owned.get((int) (rows.get(k) >>> 32));
                WalkedEntry e = l.entries.get((int) rows.get(k));
                FileStat stat = e.stat();
                if (ids != null) {
                    loadText.value(ids[k]);
                }
                loadText.value(l.dir.id()).value(e.name()).value(stat.kind().name())
                        .value(stat.size()).value(stat.mtimeNanos()).value(stat.linkTarget()).value(keyOf(stat))
                        .value(scan).value(stat.isDirectory() ? scan : 0).endRow();  // claimed, see claimSubdirectories
            }
            long loaded = st.bulkLoader.load(c, loadText.stream());
            if (loaded != rows.size()) {
                // LOAD DATA LOCAL turns a row it cannot take into a warning: never go on without every row.
                throw new SQLException("the bulk loader appended " + loaded + " of " + rows.size() + " rows");
            }
            if (ids == null && (ids = st.bulkLoader.loadedIds(c, rows.size(), scan)) == null) {
                throw new LoadRefused();
            }
            for (int k = 0; k < rows.size(); k++) {
                Listing l = owned.get((int) (rows.get(k) >>> 32));
                int i = (int) rows.get(k);
                WalkedEntry e = l.entries.get(i);
                l.ids[i] = ids[k];
                l.inserted++;
                log.changeIn(ids[k], ChangeType.ADDED, e.stat().kind().name(), l.dirPath(), e.name(), null);
            }
            loadedRows += rows.size();
        });
    }

    /** A child row's place, by which a returned row is matched to the entry it was inserted for. */
    private record ChildKey(long parent, String name) {
    }

    /** Inserts the {@code n} rows from {@code from} in one statement ({@code n} a power of two). */
    private void insertRows(Listing[] rowOf, int[] entryOf, int from, int n) throws SQLException {
        Sql.Bound insert = q(st.insertChildren(n));
        Map<ChildKey, Integer> byName = st.insertsReturnIds() ? new HashMap<>() : null;
        for (int k = from; k < from + n; k++) {
            Listing l = rowOf[k];
            WalkedEntry e = l.entries.get(entryOf[k]);
            String[] names = Statements.ROW_PARAMS[k - from];
            insert.set(names[0], l.dir.id()).set(names[1], e.name()).set(names[2], e.stat().kind().name())
                    .set(names[3], e.stat().size()).set(names[4], e.stat().mtimeNanos())
                    .set(names[5], e.stat().linkTarget()).set(names[6], keyOf(e.stat()))
                    .set(names[7], e.stat().isDirectory() ? scan : 0L);    // claimed, see claimSubdirectories
            if (byName != null) {
                byName.put(new ChildKey(l.dir.id(), e.name()), k);
            }
        }
        insert.set("scan", scan);
        if (byName == null) {
            insert.statement.executeUpdate();
            return;
        }
        int returned = 0;
        try (ResultSet rs = insert.statement.executeQuery()) {
            while (rs.next()) {
                int k = byName.get(new ChildKey(rs.getLong(2), rs.getString(3)));
                Listing l = rowOf[k];
                WalkedEntry e = l.entries.get(entryOf[k]);
                l.ids[entryOf[k]] = rs.getLong(1);
                l.inserted++;
                returned++;
                log.changeIn(rs.getLong(1), ChangeType.ADDED, e.stat().kind().name(), l.dirPath(), e.name(), null);
            }
        }
        if (returned < n) {
            db.dialect.requireOnlyConflictsLeftOut(insert.statement);
        }
    }

    /**
     * Writes the changed, stale-marked and revived rows of the listings, in two batches: the rows read in the index,
     * each written only if it still is, and the orphans brought back.
     */
    private void updateChanged(List<Listing> owned) throws SQLException {
        List<Long> goneSinceRead = new ArrayList<>();
        Sql.Bound live = q(st.updateLiveChild);
        BatchRunner liveUpdates = new BatchRunner(live.statement, (tag, count) -> {
            if (count == 0) {
                goneSinceRead.add(tag);
            } else {
                recordUpdated(owned, tag);
            }
        });
        Sql.Bound revive = q(st.updateChild);
        BatchRunner revivals = new BatchRunner(revive.statement, (tag, count) -> {
            if (count == 0) {
                reinsert(owned, tag);
            } else {
                recordUpdated(owned, tag);
            }
        });
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            for (int i = 0; i < l.entries.size(); i++) {
                byte seen = l.seen[i];
                if (seen == CHANGED || seen == REWRITE || seen == REVIVED) {
                    WalkedEntry e = l.entries.get(i);
                    bindEntry(seen == REVIVED ? revive : live, 0, e.name(), e.stat()).set("id", l.ids[i]);
                    (seen == REVIVED ? revivals : liveUpdates).add(((long) w << 32) | i);
                }
            }
        }
        liveUpdates.flush();
        revivals.flush();
        for (long tag : goneSinceRead) {
            reviveGoneSinceRead(owned, tag);
        }
    }

    /** Records what the update of entry {@code tag} (listing and entry, as {@link #updateChanged} tags them) did. */
    private void recordUpdated(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        if (l.seen[at] == REWRITE) {
            l.unchanged++;
            return;
        }
        ChangeType type = l.seen[at] == REVIVED ? ChangeType.ADDED : ChangeType.MODIFIED;
        if (type == ChangeType.ADDED) {
            l.revived++;
        } else {
            l.modified++;
        }
        log.change(l.ids[at], type, l.entries.get(at).stat().kind().name(), l.pathOf(at), null);
    }

    /**
     * Entry {@code tag}'s row was read in the index but had left it when written: an older scan whose stale mark it
     * had swept it meanwhile and reported it deleted. It exists (this scan has just listed it), so it comes back as
     * added, under its id; or, if it is gone altogether or a newer scan has taken it, as {@link #reinsert} says.
     */
    private void reviveGoneSinceRead(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        WalkedEntry e = l.entries.get(at);
        Row now = find(l.dir.id(), e.name());
        if (now != null && now.orphan() && now.scanId() <= scan) {
            Sql.Bound revive = q(st.updateChild);
            if (bindEntry(revive, 0, e.name(), e.stat()).set("id", now.id()).statement.executeUpdate() == 1) {
                l.ids[at] = now.id();
                l.seen[at] = REVIVED;
                recordUpdated(owned, tag);
                return;
            }
        }
        reinsert(owned, tag);
    }

    /**
     * Entry {@code tag}'s row is gone since it was read (deleted with an orphaned subtree, say) or taken by a newer
     * scan: the upsert re-inserts the first (with a new id, read back before any claim) and leaves the second.
     */
    private void reinsert(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        WalkedEntry e = l.entries.get(at);
        l.ids[at] = 0;
        l.tryInserting(at);
        bindEntry(q(st.upsertChild), l.dir.id(), e.name(), e.stat()).statement.executeUpdate();
        if (st.insertsReturnIds()) {
            recordReinserted(l, at);
        }
    }

    /**
     * Records entry {@code at}'s row as added if the upsert just inserted it: where new rows' ids come from the
     * insert, nothing reads this transaction's new rows back, so a re-inserted row is recorded here.
     */
    private void recordReinserted(Listing l, int at) throws SQLException {
        WalkedEntry e = l.entries.get(at);
        Row now = find(l.dir.id(), e.name());
        if (now != null && now.scanId() == scan && now.id() > log.floor) {
            l.inserted++;
            log.changeIn(now.id(), ChangeType.ADDED, now.kind(), l.dirPath(), e.name(), null);
        }
    }

    /** Claims the listings' subdirectories for this scan, in one batch, and lists the ones won on each listing. */
    private void claimSubdirectories(List<Listing> owned) throws SQLException {
        Map<Long, Map<String, ChildDirectory>> inserted = null;
        LongList toClaim = new LongList();
        List<Listing> claimers = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Listing l : owned) {
            for (int i = 0; i < l.entries.size(); i++) {
                WalkedEntry e = l.entries.get(i);
                if (!e.isReadable() || !e.stat().isDirectory()) {
                    continue;
                }
                long id = l.ids[i];
                // Not compared with a row (there was none) and written by this scan: insertNew's row, which went
                // in claimed already (listed_by = scan); any other row is claimed by the UPDATE below.
                boolean insertedClaimed = id != 0 && l.seen[i] == 0;
                if (id == 0) {
                    // Inserted just now, or by another scan meanwhile: read the ids back, once for the wave.
                    if (inserted == null) {
                        inserted = childDirectoryIds(owned);
                    }
                    ChildDirectory child = inserted.getOrDefault(l.dir.id(), Map.of()).get(e.name());
                    id = child == null ? 0 : child.id();
                    insertedClaimed = child != null && child.scanId() == scan && l.seen[i] == 0;
                }
                if (insertedClaimed) {
                    if (st.bulkLoader != null) {
                        freshDirs.add(id);
                    }
                    l.subdirectories.add(new Directory(id, l.dir.id(), e.name(), l.dir.path().resolve(e.name())));
                } else if (id != 0) {
                    // The claim itself checks the row's kind as it is now.
                    toClaim.add(id);
                    claimers.add(l);
                    names.add(e.name());
                } else {
                    l.skipped++;
                }
            }
        }
        boolean[] claimed = claim(toClaim);
        for (int i = 0; i < claimed.length; i++) {
            Listing l = claimers.get(i);
            if (claimed[i]) {
                l.subdirectories.add(new Directory(toClaim.get(i), l.dir.id(), names.get(i),
                        l.dir.path().resolve(names.get(i))));
            } else {
                l.skipped++;
            }
        }
    }

    /** Statement {@code sql} for {@code count} directory ids, prepared once per list length, with the ids bound. */
    private Sql.Bound forIds(Statements.ForIds<Long> sql, long[] ids, int count) throws SQLException {
        return Statements.ForIds.bind(q(sql.forCount(count)), ids, count);
    }

    /** Statement {@code sql} for directory {@code dir} and {@code count} names, with both bound. */
    private Sql.Bound forNames(Statements.ForIds<String> sql, long dir, String[] names, int count)
            throws SQLException {
        return Statements.ForIds.bind(q(sql.forCount(count)), names, count).set("dir", dir);
    }

    /** Runs {@code each} for every piece of {@code names} one names statement takes, with the piece and its length. */
    private static void inPieces(List<String> names, Statements.ForIds<String> sql, NamesPiece each)
            throws SQLException {
        String[] piece = new String[sql.max()];
        for (int from = 0; from < names.size(); from += piece.length) {
            int n = Math.min(piece.length, names.size() - from);
            for (int i = 0; i < n; i++) {
                piece[i] = names.get(from + i);
            }
            each.run(piece, n);
        }
    }

    private interface NamesPiece {
        void run(String[] names, int count) throws SQLException;
    }

    private static final byte NEWER = 1, UNCHANGED = 2, CHANGED = 3, REWRITE = 4, REVIVED = 5, MOVED = 6;

    /**
     * The identity a move keeps, as stored in {@code file_key}: on Unix the inode number with the device in the high
     * bits, so rows inserted in walk order go to the index nearly in order (a hash would scatter them and make a
     * cold scan's index writes random); for another platform's key, a 64-bit FNV-1a hash of it. Null where the
     * platform gives none. Either way a candidate is checked on kind, mtime and size besides.
     */
    static Long keyOf(FileStat stat) {
        if (stat == null || stat.fileKey() == null) {
            return null;
        }
        String key = stat.fileKey().toString();
        int dev = key.startsWith("(dev=") ? 5 : -1;
        int ino = key.indexOf(",ino=");
        if (dev > 0 && ino > dev && key.endsWith(")")) {
            try {
                long device = Long.parseUnsignedLong(key, dev, ino, 16);
                long inode = Long.parseUnsignedLong(key, ino + 5, key.length() - 1, 10);
                return inode ^ (device << 40);
            } catch (NumberFormatException notUnix) {
                // fall through to the hash
            }
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Moves the row of an entry that has disappeared from its old place to new entry {@code e} in {@code dir},
     * keeping its id, and returns what it moved; null if no row qualifies. A row qualifies if it has the same file
     * identity, kind and modification time (and, for a file, size), no newer scan wrote it or listed its old parent,
     * it is not {@code dir} or above it, and it is gone from its old place: an orphan, marked stale by a listing, or
     * nothing exists at its old path any more.
     *
     * @param above the ids of {@code dir} and every directory above it
     */
    // The modification time matters for directories too: filesystems hand a deleted directory's inode number to the
    // next one created (ext4 and tmpfs at once), and a rename leaves the moved directory's own mtime as it was.
    private Moved tryMove(Directory dir, WalkedEntry e, Set<Long> above) throws SQLException {
        Long key = keyOf(e.stat());
        List<Row> candidates = new ArrayList<>();
        try (ResultSet rs = q(st.selectByFileKey).set("key", key).statement.executeQuery()) {
            while (rs.next()) {
                candidates.add(Row.read(rs));
            }
        }
        FileStat stat = e.stat();
        for (Row old : candidates) {
            if (!old.kind().equals(stat.kind().name()) || above.contains(old.id())
                    || old.mtime() != stat.mtimeNanos()
                    || (!stat.isDirectory() && old.size() != stat.size())
                    || !mayTakeFromItsPlace(old)) {
                continue;
            }
            Path oldPath = locate(old.id()).path();
            if (!old.orphan() && !old.stale() && stillThere(oldPath)) {
                continue;
            }
            Moved moved = retarget(dir, e, old, oldPath);
            if (moved != null) {
                return moved;
            }
        }
        return null;
    }

    /**
     * The fallback where the platform gives no file identity: moves the one orphan (or row marked stale) with the
     * same size and content fingerprint as new file {@code e}, if there is exactly one; null otherwise. Reads the
     * file's first and last blocks inside the transaction, so it runs only when the scan computes fingerprints.
     */
    private Moved tryMoveByFingerprint(Directory dir, WalkedEntry e) throws SQLException {
        String fingerprint;
        try {
            fingerprint = hasher.hash(dir.path().resolve(e.name()), e.stat().size(), false).fingerprint();
        } catch (IOException unreadable) {
            return null;                        // the content pass after the listing reports what it cannot read
        }
        List<Row> candidates = new ArrayList<>();
        try (ResultSet rs = q(st.selectGoneByFingerprint).set("fingerprint", fingerprint)
                .set("size", e.stat().size()).statement.executeQuery()) {
            while (rs.next() && candidates.size() < 2) {
                candidates.add(Row.read(rs));
            }
        }
        if (candidates.size() != 1) {
            return null;                        // none, or more than one: which one moved cannot be told
        }
        Row old = candidates.get(0);
        return mayTakeFromItsPlace(old) ? retarget(dir, e, old, locate(old.id()).path()) : null;
    }

    /**
     * True if this scan may move row {@code old} away from its place: no newer scan wrote it, it is not a top-level
     * row, and no newer scan has listed its parent (that scan saw it there, and what it saw stands).
     */
    private boolean mayTakeFromItsPlace(Row old) throws SQLException {
        return old.scanId() <= scan && old.parent() != 0 && mayWriteUnder(old.parent());
    }

    /** Moves row {@code old} (now at {@code oldPath}) to entry {@code e} in {@code dir}, and records the move. */
    private Moved retarget(Directory dir, WalkedEntry e, Row old, Path oldPath) throws SQLException {
        log.requireNotInsertedMeanwhile(old.id(), old.scanId());
        log.settleAdded();                      // the row may be one this transaction inserted and holds as added
        Path newPath = dir.path().resolve(e.name());
        Sql.Bound move = q(st.moveRow);
        bindEntry(move, dir.id(), e.name(), e.stat()).set("id", old.id());
        if (move.statement.executeUpdate() == 0) {
            return null;
        }
        log.change(old.id(), ChangeType.MOVED, old.kind(), newPath, oldPath);
        long back = 0;
        if (old.orphan() && old.isDirectory()) {
            // Its descendants were reported deleted with it; they are back, at their new paths.
            back = log.subtree(old.id(), newPath.toString(), ChangeType.ADDED, false, old.goneAt());
            q(st.clearSubtreeGone).set("top", old.id()).set("since", old.goneAt()).statement.executeUpdate();
        }
        return new Moved(old.id(), back);
    }

    /** A row {@link #tryMove} moved, and how many of its descendants came back into the index with it. */
    private record Moved(long id, long descendantsBack) {
    }

    /**
     * True if something still exists at {@code path}. Only an entry that has disappeared from its old path moves: a
     * hard link's other name still exists, and a file replaced by another under the same name keeps that name's row.
     */
    private boolean stillThere(Path path) {
        try {
            walker.stat(path);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return true;                        // cannot tell: leave the row where it is
        }
    }

    /** A row's path and the ids from the top of the index down to it. */
    private record Located(Path path, List<Long> ids) {
    }

    /** Finds row {@code id}'s path and ancestors from the rows above it (its old place, for a row being moved). */
    private Located locate(long id) throws SQLException {
        List<Long> ids = new ArrayList<>();
        Path path = null;
        try (ResultSet rs = q(st.ancestors).set("id", id).statement.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
                String name = rs.getString(2);
                path = path == null ? Path.of(name) : path.resolve(name);
            }
        }
        return new Located(path, ids);
    }

    /**
     * Adds rows to a JDBC batch and runs it every {@link #BATCH_ROWS} rows, handing each row's update count to
     * {@code onCount} with the row's tag; so a huge directory's batch never holds all its rows.
     */
    private static final class BatchRunner {
        interface OnCount {
            void accept(long tag, int count) throws SQLException;
        }

        private final java.sql.PreparedStatement statement;
        private final OnCount onCount;
        private final long[] tags = new long[BATCH_ROWS];
        private int size;

        BatchRunner(java.sql.PreparedStatement statement, OnCount onCount) {
            this.statement = statement;
            this.onCount = onCount;
        }

        void add(long tag) throws SQLException {
            statement.addBatch();
            tags[size++] = tag;
            if (size == BATCH_ROWS) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (size == 0) {
                return;
            }
            int[] counts = statement.executeBatch();
            int batch = size;
            size = 0;
            for (int b = 0; b < counts.length && b < batch; b++) {
                onCount.accept(tags[b], counts[b]);
            }
        }
    }

    /** The ids of the directory rows below the listings' directories, by parent and name, in one query. */
    /** A subdirectory's row as read back after the listing's inserts. */
    private record ChildDirectory(long id, long scanId) {
    }

    private Map<Long, Map<String, ChildDirectory>> childDirectoryIds(List<Listing> owned) throws SQLException {
        long[] dirIds = owned.stream().mapToLong(l -> l.dir.id()).toArray();
        Map<Long, Map<String, ChildDirectory>> ids = new HashMap<>();
        try (ResultSet rs = forIds(st.childDirectoriesOf, dirIds, dirIds.length).statement.executeQuery()) {
            while (rs.next()) {
                ids.computeIfAbsent(rs.getLong(2), k -> new HashMap<>())
                        .put(rs.getString(3), new ChildDirectory(rs.getLong(1), rs.getLong(4)));
            }
        }
        return ids;
    }

    /** Runs {@code q} once per id, batched {@link #BATCH_ROWS} at a time. */
    private void executeInChunks(Sql.Bound q, LongList ids, String key) throws SQLException {
        for (int i = 0; i < ids.size(); i++) {
            q.set(key, ids.get(i)).set("scan", scan).statement.addBatch();
            if ((i + 1) % BATCH_ROWS == 0 || i + 1 == ids.size()) {
                q.statement.executeBatch();
            }
        }
    }

    /** A growable array of longs, for ids of rows a listing touches without keeping a row object each. */
    static final class LongList {
        private long[] values = new long[8];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long get(int i) {
            return values[i];
        }

        void addAll(LongList other) {
            for (int i = 0; i < other.size; i++) {
                add(other.values[i]);
            }
        }

        int size() {
            return size;
        }
    }

    private boolean claimOne(long dir) throws SQLException {
        LongList one = new LongList();
        one.add(dir);
        return claim(one)[0];
    }

    /**
     * Claims each directory for this scan; a directory some newer scan has already listed is not won. Marks nothing:
     * the listing that follows marks what it finds missing. One statement claims up to {@link
     * Statements.ForIds#MAX_IDS} directories and one reads which were won (listed_by is now this scan's; the claim
     * holds their rows locked), instead of an UPDATE per directory: a rescan claims every directory, and MySQL's
     * driver sends a batch of updates one round trip each.
     */
    private boolean[] claim(LongList dirs) throws SQLException {
        boolean[] won = new boolean[dirs.size()];
        for (int from = 0; from < dirs.size(); from += Statements.ForIds.MAX_IDS) {
            int n = Math.min(Statements.ForIds.MAX_IDS, dirs.size() - from);
            long[] ids = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = dirs.get(from + i);
            }
            forIds(st.claimDirectories, ids, n).set("scan", scan).statement.executeUpdate();
            Set<Long> claimed = new HashSet<>();
            try (ResultSet rs = forIds(st.claimedDirectories, ids, n).set("scan", scan).statement.executeQuery()) {
                while (rs.next()) {
                    claimed.add(rs.getLong(1));
                }
            }
            for (int i = 0; i < n; i++) {
                won[from + i] = claimed.contains(ids[i]);
            }
        }
        return won;
    }

    /**
     * Nothing to undo: claiming the directory marked none of its children, so they stay exactly as they were,
     * including marks an older scan's listing of it made (that scan saw those entries gone).
     */
    @Override
    public void unreadable(Directory dir) {
        freshDirs.remove(dir.id());
    }

    @Override
    public void vanished(Directory dir, FileStat replacement) {
        freshDirs.remove(dir.id());
        write(conn -> {
            // The directory's own row lives in its parent's listing: a newer scan that listed the parent has the say.
            if (!mayWriteUnder(dir.parentId())) {
                return 0;
            }
            if (replacement == null) {
                return q(st.markStale).set("id", dir.id()).set("scan", scan).statement.executeUpdate();
            }
            Row old = find(dir.parentId(), dir.name());
            if (old != null && old.id() == dir.id()) {
                emptyIfNoLongerDirectory(old, replacement, dir.path());
            }
            int count = bindEntry(q(dir.parentId() == 0 ? st.upsertTopLevel : st.upsertChild), dir.parentId(),
                    dir.name(), replacement).statement.executeUpdate();
            Row now = find(dir.parentId(), dir.name());
            if (now != null) {
                recordUpsert(old, now, new WalkedEntry(dir.name(), replacement), dir.path());
            }
            return count;
        });
    }

    @Override
    public void removeRoot(List<WalkedEntry> trunk, String rootName) {
        write(conn -> {
            long parent = 0;
            for (WalkedEntry e : trunk) {
                Row row = find(parent, e.name());
                if (row == null) {
                    return 0;
                }
                parent = row.id();
            }
            Row root = find(parent, rootName);
            if (root == null || (parent != 0 && !mayWriteUnder(parent))) {
                return 0;
            }
            return q(st.markStale).set("id", root.id()).set("scan", scan).statement.executeUpdate();
        });
    }

    @Override
    public long finish(boolean completed) {
        try {
            long removed = write(conn -> {
                if (!completed) {
                    q(st.unmarkAll).set("scan", scan).statement.executeUpdate();
                    return 0L;
                }
                long gone = sweep();
                long cutoff = log.now - settings.orphanRetention().toMillis();
                deleteSubtrees(st.countPurge, st.purgeBelow, st.purge, "cutoff", cutoff + 1);
                log.prune(settings.feedCapacity());
                return gone + removedEarly;
            });
            if (changedEnoughToAnalyze(insertedRows + removed, maxIdAtStart)) {
                analyzeFiles();
            }
            return removed;
        } finally {
            closeStatements();
        }
    }

    /** Rows a scan must add or remove before it refreshes the planner's statistics ({@link #analyzeFiles}). */
    static final long ANALYZE_AFTER_ROWS = 10_000;

    /**
     * Whether a scan that added or removed {@code changed} rows of a table whose ids went up to {@code maxId} when it
     * started refreshes the statistics: at least {@link #ANALYZE_AFTER_ROWS}, and a tenth of the table (the share
     * after which PostgreSQL's autovacuum analyzes on its own, which a rescan right after may not wait for); a small
     * change to a large table leaves the statistics as good as they were.
     */
    static boolean changedEnoughToAnalyze(long changed, long maxId) {
        return changed >= ANALYZE_AFTER_ROWS && changed >= maxId / 10;
    }

    /**
     * Refreshes the planner's statistics where the dialect asks for it: a rescan right after a cold scan of a million
     * rows, before the engine's own background statistics ran, read each wave's rows by a sequential scan (PostgreSQL
     * without statistics guesses a third of the table for {@code parent IN (64 ids)}): 30 s instead of 7.
     */
    private void analyzeFiles() {
        if (st.analyzeFiles == null) {
            return;
        }
        try {
            q(st.analyzeFiles).statement.execute();
        } catch (SQLException e) {
            // Only the next scans' speed depends on it; the scan itself has completed and committed.
        }
    }

    /**
     * Takes every row this scan marked stale, with everything below it, out of the index: each is reported deleted
     * and becomes an orphan (kept, invisible, for move detection until the purge). Directories go first, so a row
     * below two of them is reported once. Returns how many entries left the index.
     */
    private long sweep() throws SQLException {
        long gone = 0;
        Map<Long, Path> parents = new HashMap<>();
        for (Row top : staleRows(st.staleDirectories)) {
            gone += reportRemoved(top.id(), () -> pathOfChild(parents, top), true);
            q(st.setSubtreeGone).set("top", top.id()).set("now", log.now).statement.executeUpdate();
        }
        // Locked as they are read: a newer scan's sweep may be taking one of them out right now.
        for (Row file : staleRows(st.staleFiles)) {
            log.change(file.id(), ChangeType.DELETED, file.kind(), pathOfChild(parents, file), null);
            gone++;
        }
        q(st.orphanStaleFiles).set("scan", scan).set("now", log.now).statement.executeUpdate();
        q(st.unmarkAll).set("scan", scan).statement.executeUpdate();
        return gone;
    }

    /**
     * Reports deleted each entry of the subtree below row {@code top} (at {@code topPath}, asked for once the row is
     * held, so that its parent cannot go meanwhile) that is still in the index,
     * {@code top} too if asked, before the caller takes them out; returns how many it reported. Each level of the
     * subtree is read locked ({@link io.fsindex.core.spi.Dialect#lockedForWrite}) before the level below it: an older
     * scan writing below one of its directories holds that row shared until it commits, so the read waits for it and
     * the next level's read sees its rows; a scan about to write there waits for this transaction and then finds the
     * directory gone; and a row another sweep is taking out is read, after the wait, as that sweep left it, so no
     * entry is reported twice and none leaves unreported.
     */
    private long reportRemoved(long top, PathOf topPath, boolean includeTop) throws SQLException {
        long count = 0;
        Path path;
        try (ResultSet rs = q(st.removedTop).set("top", top).statement.executeQuery()) {
            if (!rs.next()) {
                return 0;                       // deleted meanwhile, with everything below it
            }
            String kind = rs.getString(2);
            rs.getLong(3);
            path = topPath.get();
            if (includeTop && rs.wasNull()) {
                log.change(top, ChangeType.DELETED, kind, path, null);
                count++;
            }
        }
        Map<Long, String> level = Map.of(top, path.toString());
        while (!level.isEmpty()) {
            Map<Long, String> below = new HashMap<>();
            long[] ids = level.keySet().stream().mapToLong(Long::longValue).toArray();
            for (int from = 0; from < ids.length; from += st.removedChildren.max()) {
                int n = Math.min(st.removedChildren.max(), ids.length - from);
                long[] piece = java.util.Arrays.copyOfRange(ids, from, from + n);
                try (ResultSet rs = forIds(st.removedChildren, piece, n).statement.executeQuery()) {
                    while (rs.next()) {
                        long id = rs.getLong(1);
                        String dirPath = level.get(rs.getLong(2));
                        String name = rs.getString(3);
                        String kind = rs.getString(4);
                        rs.getLong(5);
                        if (rs.wasNull()) {
                            log.changeIn(id, ChangeType.DELETED, kind, dirPath, name, null);
                            count++;
                        }
                        if (FileKind.DIRECTORY.name().equals(kind)) {
                            below.put(id, ChangeLog.join(dirPath, name));
                        }
                    }
                }
            }
            level = below;
        }
        return count;
    }

    /** A path looked up when it is needed. */
    private interface PathOf {
        Path get() throws SQLException;
    }

    /** This scan's stale rows the statement selects: id, parent, name and kind only. */
    private List<Row> staleRows(Sql select) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = q(select).set("scan", scan).statement.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), 0, 0, null, scan,
                        0, true, null, 0));
            }
        }
        return rows;
    }

    /**
     * The path of {@code row} from its parent's, looked up once per parent. A row the sweep holds cannot lose its
     * parent (deleting that would delete the row), so a missing one is a broken index, said as such.
     */
    private Path pathOfChild(Map<Long, Path> parents, Row row) throws SQLException {
        if (row.parent() == 0) {
            return Path.of(row.name());
        }
        Path parent = parents.get(row.parent());
        if (parent == null) {
            parent = locate(row.parent()).path();
            if (parent == null) {
                throw new SQLException("row " + row.id() + " (" + row.name() + ") has no parent row "
                        + row.parent() + " in " + st.t.filesName());
            }
            parents.put(row.parent(), parent);
        }
        return parent.resolve(row.name());
    }

    private void closeStatements() {
        for (Sql.Bound b : prepared.values()) {
            try {
                b.close();
            } catch (SQLException ignored) {
                // The connection is closed right after the scan anyway, which closes what is left.
            }
        }
        prepared.clear();
    }

    /**
     * Deletes whole subtrees whose top rows {@code delete} removes, returning how many rows go in all. A subtree
     * deeper than the engine's cascade can go ({@link io.fsindex.core.spi.Dialect#maxCascadeDepth}) is first cut
     * from the bottom in bands with {@code deleteBelow}, so no cascade runs deeper than one band.
     *
     * @param count       counts the rows of the subtrees and their greatest depth
     * @param deleteBelow deletes the rows deeper than {@code :depth}
     * @param delete      deletes the top rows; the cascade takes what is left below them
     */
    private long deleteSubtrees(Sql count, Sql deleteBelow, Sql delete, String key, long value) throws SQLException {
        long rows;
        int depth;
        try (ResultSet rs = q(count).set(key, value).statement.executeQuery()) {
            rs.next();
            rows = rs.getLong(1);
            depth = rs.getInt(2);
        }
        int band = db.dialect.maxCascadeDepth();
        for (int below = depth - band; below > 0; below -= band) {
            BlockedDeletion.execute(q(deleteBelow).set(key, value).set("depth", below));
        }
        BlockedDeletion.execute(q(delete).set(key, value));
        return rows;
    }

    private Sql.Bound bindEntry(Sql.Bound q, long parent, String name, FileStat stat) throws SQLException {
        if (parent != 0) {
            q.set("parent", parent);
        }
        if (q.has("name")) {
            q.set("name", name);
        }
        if (q.has("key")) {
            q.set("key", keyOf(stat));
        }
        return q.set("kind", stat.kind().name()).set("size", stat.size())
                .set("mtime", stat.mtimeNanos()).set("link", stat.linkTarget()).set("scan", scan);
    }

    private <T> T write(Database.Work<T> work) {
        try {
            T result = db.write(c, conn -> {
                removedInTransaction = 0;   // a retried transaction starts its count again
                log.open();
                T r = work.run(conn);
                log.close();
                return r;
            });
            removedEarly += removedInTransaction;
            if (deliverChanges) {
                log.deliver();
            }
            return result;
        } catch (BlockedDeletion e) {
            throw e.explain(c, db, st.t, "scan " + scan);
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect.name() + " error in scan " + scan + ": " + e.getMessage(), e);
        }
    }

    /**
     * The change feed as this scan writes it. A write transaction numbers its changes on from the feed head's
     * {@code last_seq} and moves the head on before committing, holding the head's row lock from reading it until
     * the commit, so numbers are handed out in commit order (see {@link io.fsindex.core.spi.Dialect#lockFeed}).
     *
     * <p>The head is locked as late as possible: the changes a transaction makes are held (in memory, or as "the rows
     * this wave inserted" for added entries) and written only at the end, after all its other writes, so scans'
     * transactions write their rows concurrently and take turns only for writing the feed and committing. While it
     * holds the head, a transaction writes nothing but the feed, so it never waits for another writer's locks and no
     * deadlock can involve the head. A transaction that changes more entries than {@link #heldChanges} locks the head
     * at that point instead of holding more in memory, and one about to move or delete rows it may have inserted
     * itself locks it first ({@link #settleAdded}); a deadlock either may then meet is detected and retried. One
     * that changes nothing never locks it.
     */
    private final class ChangeLog {
        /** Into how many steps of the feed's capacity pruning its directory rows is spread (see {@link #prune}). */
        private static final long DIR_PRUNE_STEPS = 8;

        /** The feed's last number when the head was locked, and the last one handed out so far. */
        private long first, last;
        /** The largest row id when the transaction began: this scan's rows above it were inserted by it. */
        private long floor;
        /** When the transaction began, the time its changes are stamped with. */
        long now;
        private int pending;
        /**
         * Whether this transaction sends its change rows by the engine's bulk loader (as text in {@link
         * #changeText}) instead of as batched inserts: where there is one, unless a load has failed in this scan.
         */
        private boolean loadsChanges;
        private final LoadText changeText = new LoadText();
        /** Whether this transaction holds the head's lock (and writes its changes as they come). */
        private boolean locked;
        /** Until then, the changes in the order they were made: {@link Held} rows and {@link AddedRows}. */
        private final List<Object> held = new ArrayList<>();
        private int heldRows;
        private boolean heldAdded;

        /** One change held until the head is locked. */
        private record Held(long id, ChangeType type, String kind, String dirPath, String name, String previous) {
        }

        /**
         * The rows a wave inserted below its directories (ids ascending), held until the head is locked; for one
         * part of a listing, {@code names} are the names it tried to insert, by which its rows are found.
         */
        private record AddedRows(long[] dirIds, String[] dirPaths, long[] counts, List<String> names) {
        }

        void open() throws SQLException {
            try (ResultSet rs = q(st.maxFileId).statement.executeQuery()) {
                rs.next();
                floor = rs.getLong(1);
            }
            now = System.currentTimeMillis();
            first = last = 0;
            locked = false;
            held.clear();
            heldRows = 0;
            heldAdded = false;
            pending = 0;
            pendingDirs = 0;
            dirs.clear();
            loadsChanges = loaderUsable();
            changeText.clear();
            q(st.insertChange);                 // drops a batch a failed attempt left behind
            q(st.insertChangeDir);
        }

        /**
         * Throws {@link RowsAboveFloor} for row {@code id}, written by scan {@code scanId}, if another transaction
         * inserted it after this one began: this transaction is about to write it, and would then take it for one of
         * its own new rows (above {@link #floor}, its scan's) and record it added. A row a newer scan wrote is left
         * alone anyway, and one this transaction inserted is its own.
         */
        void requireNotInsertedMeanwhile(long id, long scanId) throws RowsAboveFloor {
            if (id > floor && scanId < scan) {
                throw new RowsAboveFloor(id);
            }
        }

        /**
         * Writes the held added rows now, locking the head, if any are held: called before this transaction moves
         * or deletes rows it may itself have inserted, since held added rows are read back only when written (a row
         * moved or deleted meanwhile would be recorded at its new place, or not at all).
         */
        void settleAdded() throws SQLException {
            if (!locked && heldAdded) {
                lock();
            }
        }

        /** Locks the head, reads where numbering goes on, and writes the changes held so far. */
        private void lock() throws SQLException {
            try (ResultSet rs = q(st.lockFeed).statement.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the change feed's head row is missing from " + st.t.feedName());
                }
                first = last = rs.getLong(1);
            }
            locked = true;
            for (Object change : held) {
                if (change instanceof Held h) {
                    write(h.id(), h.type(), h.kind(), h.dirPath(), h.name(), h.previous());
                } else {
                    write((AddedRows) change);
                }
            }
            held.clear();
            heldRows = 0;
            heldAdded = false;
        }

        /** The change_dirs rows this transaction wrote, by path: each directory's path is written once. */
        private final Map<String, Long> dirs = new HashMap<>();
        private int pendingDirs;

        /**
         * The change_dirs row for {@code dirPath}, written (numbered {@code seq}, the change about to refer to it)
         * if this transaction has none yet.
         */
        private long dirRef(String dirPath, long seq) throws SQLException {
            Long id = dirs.get(dirPath);
            return id != null ? id : newDirRef(dirPath, seq);
        }

        /** Writes a change_dirs row numbered {@code seq} for {@code dirPath}; later changes there refer to it. */
        private long newDirRef(String dirPath, long seq) throws SQLException {
            dirs.put(dirPath, seq);
            prepared.get(st.insertChangeDir).set("id", seq).set("path", dirPath).statement.addBatch();
            if (++pendingDirs == BATCH_ROWS) {
                flush();
            }
            return seq;
        }

        /** Records one change of the entry at {@code path} ({@code previous}: where a moved entry was). */
        void change(long id, ChangeType type, String kind, Path path, Path previous) throws SQLException {
            Path dir = path.getParent();
            changeIn(id, type, kind, dir == null ? null : dir.toString(),
                    dir == null ? path.toString() : path.getFileName().toString(),
                    previous == null ? null : previous.toString());
        }

        /** Records one change of entry {@code name} in the directory at {@code dirPath} (null: a top-level one). */
        private void changeIn(long id, ChangeType type, String kind, String dirPath, String name, String previous)
                throws SQLException {
            if (locked) {
                write(id, type, kind, dirPath, name, previous);
                return;
            }
            held.add(new Held(id, type, kind, dirPath, name, previous));
            if (++heldRows == heldChanges) {
                lock();                         // no more in memory: write from here on as changes come
            }
        }

        private void write(long id, ChangeType type, String kind, String dirPath, String name, String previous)
                throws SQLException {
            long seq = ++last;
            Long cdir = dirPath == null ? null : dirRef(dirPath, seq);    // may flush: before this row is started
            if (loadsChanges) {
                changeText.value(seq).value(id).value(type.name()).value(kind).value(cdir).value(name)
                        .value(previous).value(scan).value(now).endRow();
            } else {
                Sql.Bound insert = prepared.get(st.insertChange);
                insert.set("seq", seq).set("entry", id).set("type", type.name()).set("kind", kind)
                        .set("name", name).set("previous", previous).set("scan", scan).set("now", now)
                        .set("cdir", cdir).statement.addBatch();
            }
            if (++pending == BATCH_ROWS) {
                flush();
            }
        }

        /**
         * Records every row this transaction inserted below the listings' directories as added, and sets each
         * listing's {@code inserted}: counts them per directory now, and writes them (numbered by directory id and
         * then row id) once the head is locked. Only this scan's rows count: a newer scan may meanwhile have
         * inserted its own root below one of these directories, and recorded it itself.
         */
        void inserted(List<Listing> owned) throws SQLException {
            Map<Long, Long> counts = new HashMap<>();
            Listing part = onlyPart(owned);
            if (part != null) {
                // A part of a huge directory: probing its own names is cheap, going through every row below the
                // directory (as the statement over directories does) would cost the whole directory per part.
                long[] count = {0};
                inPieces(part.triedNames, st.insertedNamed, (names, n) -> {
                    try (ResultSet rs = forNames(st.insertedNamed, part.dir.id(), names, n).set("floor", floor)
                            .set("scan", scan).statement.executeQuery()) {
                        rs.next();
                        count[0] += rs.getLong(1);
                    }
                });
                counts.put(part.dir.id(), count[0]);
            } else {
                long[] dirIds = owned.stream().mapToLong(l -> l.dir.id()).toArray();
                try (ResultSet rs = forIds(st.insertedCounts, dirIds, dirIds.length).set("floor", floor)
                        .set("scan", scan).statement.executeQuery()) {
                    while (rs.next()) {
                        counts.put(rs.getLong(1), rs.getLong(2));
                    }
                }
            }
            List<Listing> withRows = new ArrayList<>();
            for (Listing l : owned) {
                l.inserted = counts.getOrDefault(l.dir.id(), 0L);
                if (l.inserted > 0) {
                    withRows.add(l);
                }
            }
            if (withRows.isEmpty()) {
                return;
            }
            withRows.sort(java.util.Comparator.comparingLong(l -> l.dir.id()));
            AddedRows added = new AddedRows(withRows.stream().mapToLong(l -> l.dir.id()).toArray(),
                    withRows.stream().map(l -> l.dir.path().toString()).toArray(String[]::new),
                    withRows.stream().mapToLong(l -> l.inserted).toArray(),
                    part != null ? part.triedNames : null);
            if (locked) {
                write(added);
            } else {
                held.add(added);
                heldAdded = true;
            }
        }

        private void write(AddedRows added) throws SQLException {
            if (added.names() != null) {
                writeByName(added);
                return;
            }
            long next = last + 1;
            for (int i = 0; i < added.dirIds().length; i++) {
                newDirRef(added.dirPaths()[i], next);  // numbered by the first change referring to it
                next += added.counts()[i];
            }
            int count = forIds(st.recordInserted, added.dirIds(), added.dirIds().length).set("seq", last)
                    .set("floor", floor).set("scan", scan).set("now", now).statement.executeUpdate();
            if (count != next - last - 1) {
                throw new SQLException("recorded " + count + " added rows where " + (next - last - 1)
                        + " were counted");
            }
            last += count;
        }

        /** Writes the added rows of one part of a listing, found by their names. */
        private void writeByName(AddedRows added) throws SQLException {
            long dir = added.dirIds()[0];
            long cdir = newDirRef(added.dirPaths()[0], last + 1);
            long expected = added.counts()[0];
            long start = last;
            inPieces(added.names(), st.recordInsertedNamed, (names, n) -> {
                last += forNames(st.recordInsertedNamed, dir, names, n).set("seq", last).set("cdir", cdir)
                        .set("floor", floor).set("scan", scan).set("now", now).statement.executeUpdate();
            });
            if (last - start != expected) {
                throw new SQLException("recorded " + (last - start) + " added rows where " + expected
                        + " were counted");
            }
        }

        /**
         * Records a change of {@code type} for rows of the subtree below row {@code top} (at {@code topPath}), top
         * included if asked: with {@code goneSince} 0 the rows in the index, otherwise the orphans made at or after
         * {@code goneSince}. Returns how many it recorded.
         */
        long subtree(long top, String topPath, ChangeType type, boolean includeTop, long goneSince)
                throws SQLException {
            Map<Long, String> paths = new HashMap<>();
            long count = 0;
            List<Object[]> rows = new ArrayList<>();
            try (ResultSet rs = q(st.subtreeRows).set("top", top).statement.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Object[] {rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getLong(5), rs.getInt(6)});
                }
            }
            for (Object[] r : rows) {
                long id = (Long) r[0];
                String kind = (String) r[3];
                long goneAt = (Long) r[4];
                boolean isTop = (Integer) r[5] == 0;
                String parent = isTop ? null : paths.get((Long) r[1]);
                String path = isTop ? topPath : join(parent, (String) r[2]);
                if (path != null && FileKind.DIRECTORY.name().equals(kind)) {
                    paths.put(id, path);
                }
                boolean wanted = goneSince == 0 ? goneAt == 0 : goneAt >= goneSince;
                if (path != null && wanted && (includeTop || !isTop)) {
                    if (isTop) {
                        change(id, type, kind, Path.of(topPath), null);
                    } else {
                        changeIn(id, type, kind, parent, (String) r[2], null);
                    }
                    count++;
                }
            }
            return count;
        }

        static String join(String parent, String name) {
            return parent == null ? null : parent.endsWith("/") ? parent + name : parent + "/" + name;
        }

        private void flush() throws SQLException {
            if (pendingDirs > 0) {
                prepared.get(st.insertChangeDir).statement.executeBatch();
                pendingDirs = 0;
            }
            if (pending > 0) {
                if (loadsChanges) {
                    loadChanges();
                } else {
                    prepared.get(st.insertChange).statement.executeBatch();
                }
                pending = 0;
            }
        }

        /** Sends {@link #changeText} to the bulk loader. */
        private void loadChanges() throws SQLException {
            usingLoader(changeText, () -> st.bulkLoader.loadChanges(c, changeText.stream()));
        }

        /** Writes what is held or still batched and moves the head on, still inside the transaction. */
        void close() throws SQLException {
            if (!locked && !held.isEmpty()) {
                lock();
            }
            flush();
            if (last > first) {
                q(st.advanceFeed).set("seq", last).statement.executeUpdate();
            }
        }

        /**
         * Drops the oldest changes beyond {@code capacity}, inside the transaction holding the head, and, each time
         * the pruned changes pass another {@link #DIR_PRUNE_STEPS}th of the capacity, the directory rows no change
         * names any more. Finding those reads every remaining change (nothing indexes a change's directory: the index
         * would cost every change row), so it is not done on every prune; until it is, the directory rows of fewer
         * than that many pruned changes stay behind, named by no change and never read.
         */
        void prune(long capacity) throws SQLException {
            if (!locked) {
                lock();
            }
            flush();
            long upTo = last - capacity;
            if (upTo > 0 && q(st.pruneFeed).set("seq", upTo).statement.executeUpdate() > 0) {
                // Changes are numbered without gaps and dropped only here, oldest first: the ones dropped now are
                // those after the previous prune's bound.
                long before = upTo - q(st.pruneChanges).set("seq", upTo).statement.executeUpdate();
                long step = Math.max(1, capacity / DIR_PRUNE_STEPS);
                if (before / step != upTo / step) {
                    q(st.pruneChangeDirs).set("seq", upTo).statement.executeUpdate();
                }
            }
        }

        /** Hands the committed transaction's changes to the listener, read back from the feed. */
        void deliver() throws SQLException {
            if (last == first) {
                return;
            }
            FeedReader.read(q(st.readChanges), first, last, listener::changed);
        }
    }
}
