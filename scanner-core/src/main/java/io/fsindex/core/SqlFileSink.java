package io.fsindex.core;

import io.fsindex.api.FileKind;
import io.fsindex.api.FileSink;
import io.fsindex.api.FileStat;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.WalkedEntry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The database-backed {@link FileSink}: applies one scan's listings with the concurrent-scan protocol described in
 * the README ("Guarantees"). Every method is one retried write transaction on the scan's own connection, whose
 * statements are prepared once per scan.
 *
 * <p>Writes only what changed. Claiming a directory ({@code listed_by := scan}) is one row write and marks nothing;
 * applying its listing first checks, in the same transaction, that no newer scan has claimed it since
 * ({@link #mayWriteUnder}), then diffs the listing against the rows: new names are inserted, changed or stale rows
 * are updated, rows missing from the listing are marked stale for this scan, and unchanged rows are not written at
 * all (they keep the {@code scan_id} of whichever scan last changed them). Every other write below a directory
 * (a partial scan's trunk and root, a vanished directory, a removed root) takes the same guard on the parent, so an
 * older scan never writes a row whose parent a newer scan has listed: the newer scan saw that row, and what it saw
 * stands even where it wrote nothing.
 */
final class SqlFileSink implements FileSink {
    private final Database db;
    private final Statements st;
    private final Connection c;
    private final long scan;
    /** Each statement prepared once on {@link #c} for the whole scan; closed by {@link #finish}. */
    private final Map<Sql, Sql.Bound> prepared = new IdentityHashMap<>();
    /** Rows removed before the sweep (contents of directories this scan found replaced by files), for the result. */
    private long removedEarly;
    private long removedInTransaction;

    SqlFileSink(Database db, Statements st, Connection c, long scan) {
        this.db = db;
        this.st = st;
        this.c = c;
        this.scan = scan;
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

    /**
     * True if this scan may write the children of directory {@code dir}: its row exists and no newer scan has listed
     * it. On PostgreSQL and InnoDB the read share-locks the row until the transaction ends, so no newer scan can claim
     * the directory before this transaction's writes below it are committed.
     */
    private boolean mayWriteUnder(long dir) throws SQLException {
        Sql.Bound read = q(st.readListedBy);
        try (ResultSet rs = read.set("dir", dir).statement.executeQuery()) {
            return rs.next() && rs.getLong(1) <= scan;
        }
    }

    @Override
    public Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath) {
        return write(conn -> {
            long parent = 0;
            long added = 0;
            for (WalkedEntry e : trunk) {
                Row before = find(parent, e.name());
                Row row = upsertAndFind(parent, e, before);
                if (row == null || !row.isDirectory()) {
                    // Missing, or recorded as a non-directory by a newer scan: nothing may be hung under it.
                    return new Applied(List.of(), added, 0, 0, 1);
                }
                added += before == null && row.scanId() == scan ? 1 : 0;
                parent = row.id();
            }
            Row before = find(parent, root.name());
            Row row = upsertAndFind(parent, root, before);
            if (row == null) {
                return new Applied(List.of(), added, 0, 0, 1);
            }
            // The root's data may belong to a newer scan that only passed through it as trunk; that must not stop
            // this scan from listing it. Only the claim decides whether this scan descends.
            boolean ours = row.scanId() == scan;
            long rootAdded = ours && before == null ? 1 : 0;
            long rootUpdated = ours && before != null && !before.sameAs(root.stat()) ? 1 : 0;
            long rootUnchanged = ours && before != null && rootUpdated == 0 ? 1 : 0;
            long rootSkipped = ours ? 0 : 1;
            boolean descend = root.stat().isDirectory() && claimOne(row.id());
            if (!descend) {
                return new Applied(List.of(), added + rootAdded, rootUpdated, rootUnchanged,
                        root.stat().isDirectory() ? 1 : rootSkipped);
            }
            return new Applied(List.of(new Directory(row.id(), parent, root.name(), rootPath)), added + rootAdded,
                    rootUpdated, rootUnchanged, rootSkipped);
        });
    }

    /**
     * Called before this scan upserts {@code now} over {@code old}: if that turns a directory row into another kind,
     * lists the directory as empty first. It is claimed, so no older scan's late listing of it can insert children any
     * more, and its children go at once, since nothing can exist below a file (deferring that to the sweep would
     * leave them visible to lookups meanwhile, and forever if this scan failed). Only where old.scan_id <= scan and
     * (checked by every caller first) no newer scan has listed old's parent: a newer scan that claimed old would have
     * done so listing the parent, or as its own root, which it writes first; so no newer scan's rows are below it.
     */
    private void emptyIfNoLongerDirectory(Row old, FileStat now) throws SQLException {
        if (!old.isDirectory() || now.isDirectory() || old.scanId() > scan) {
            return;
        }
        // Already claimed by this scan: claiming again changes nothing, which MySQL reports as no row affected.
        if (old.listedBy() != scan) {
            Sql.Bound claim = q(st.claimDirectory);
            if (claim.set("dir", old.id()).set("scan", scan).statement.executeUpdate() == 0) {
                return;
            }
        }
        removedInTransaction += deleteSubtrees(st.countDescendants, st.deleteDescendantsBelow, st.deleteChildren,
                "dir", old.id());
    }

    /**
     * Upserts one trunk or root entry and reads its row back; null if the row is missing (a newer scan covers it).
     * Writes nothing where a newer scan has listed the parent: that scan saw this entry, and its view stands.
     */
    private Row upsertAndFind(long parent, WalkedEntry e, Row old) throws SQLException {
        if (parent != 0 && !mayWriteUnder(parent)) {
            return old;
        }
        if (old != null) {
            emptyIfNoLongerDirectory(old, e.stat());
        }
        bindEntry(q(parent == 0 ? st.upsertTopLevel : st.upsertChild), parent, e.name(), e.stat())
                .statement.executeUpdate();
        return find(parent, e.name());
    }

    private Row find(long parent, String name) throws SQLException {
        Sql.Bound find = q(parent == 0 ? st.selectTopLevel : st.selectChild);
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
        return write(conn -> applyListing(dir, entries));
    }

    /** Applies all the listings in one transaction: fewer commits for many small directories. */
    @Override
    public List<Applied> applyAll(List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return applyGroup(dirs.stream().map(Directory::path).toList(), dirs, listings).stream()
                .map(GroupResult::applied).toList();
    }

    /** One listing of a group and what applying it did; both null if it was not claimed, so not applied. */
    record GroupResult(Directory dir, Applied applied) {
    }

    /**
     * Applies listings in one transaction, in order, where a directory may have been claimed earlier in the same
     * group: {@code dirs.get(i)} is the directory if it was claimed before, or null to take it from the
     * subdirectories an earlier listing of this group claimed ({@code paths.get(i)} names it then). A listing whose
     * directory no earlier one claimed is not applied.
     */
    List<GroupResult> applyGroup(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return write(conn -> {
            Map<Path, Directory> claimedHere = new HashMap<>();
            List<GroupResult> out = new ArrayList<>(paths.size());
            for (int i = 0; i < paths.size(); i++) {
                Directory dir = dirs.get(i) != null ? dirs.get(i) : claimedHere.remove(paths.get(i));
                if (dir == null) {
                    out.add(new GroupResult(null, null));
                    continue;
                }
                Applied a = applyListing(dir, listings.get(i));
                for (Directory sub : a.subdirectories()) {
                    claimedHere.put(sub.path(), sub);
                }
                out.add(new GroupResult(dir, a));
            }
            return out;
        });
    }

    /** How many rows one executeBatch sends at most, so a huge directory's batch never holds all its rows. */
    static final int BATCH_ROWS = 2_048;

    /**
     * One directory's listing, inside the caller's transaction; see the class comment. The existing children are
     * streamed once and compared on the fly against the listing (by name, through an index of the listing's own
     * name strings), so the memory used beyond the listing itself is a few bytes per entry, not a row object each.
     */
    private Applied applyListing(Directory dir, List<WalkedEntry> entries) throws SQLException {
        if (!mayWriteUnder(dir.id())) {
            // A newer scan has claimed the directory since this scan did (or it is gone): its listing decides.
            long readable = entries.stream().filter(WalkedEntry::isReadable).count();
            return new Applied(List.of(), 0, 0, 0, readable);
        }
        int n = entries.size();
        Map<String, Integer> byName = new HashMap<>(Math.max(16, n * 4 / 3 + 1));
        for (int i = 0; i < n; i++) {
            byName.putIfAbsent(entries.get(i).name(), i);
        }
        long[] ids = new long[n];               // the existing row's id, 0 for none (a new name)
        byte[] seen = new byte[n];              // what the existing row needs
        final byte newer = 1, unchangedRow = 2, changedRow = 3, staleOnly = 4;
        LongList missing = new LongList();
        LongList keep = new LongList();
        List<Row> converted = new ArrayList<>();
        long skipped = 0, unchanged = 0;
        Sql.Bound read = q(st.selectChildren);
        read.set("dir", dir.id());
        try (ResultSet rs = read.statement.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                String name = rs.getString(3);
                long scanId = rs.getLong(8);
                boolean stale = rs.getInt(10) != 0;
                Integer at = byName.get(name);
                if (at == null) {
                    // Missing from the listing: gone, unless a newer scan wrote it (or this scan marked it already).
                    if (scanId < scan || (scanId == scan && !stale)) {
                        missing.add(id);
                    }
                    continue;
                }
                int i = at;
                ids[i] = id;
                WalkedEntry e = entries.get(i);
                if (!e.isReadable()) {
                    // Exists, attributes unknown: keep the row as it is; only take over an older scan's stale mark,
                    // so that scan does not delete what this newer scan has seen exist.
                    if (stale && scanId < scan) {
                        keep.add(id);
                    }
                    continue;
                }
                String kind = rs.getString(4);
                if (scanId > scan) {
                    seen[i] = newer;              // a newer scan wrote this row; what it recorded stands
                    skipped++;
                    continue;
                }
                FileStat stat = e.stat();
                boolean same = kind.equals(stat.kind().name()) && rs.getLong(5) == stat.size()
                        && rs.getLong(6) == stat.mtimeNanos() && Objects.equals(rs.getString(7), stat.linkTarget());
                if (!same && FileKind.DIRECTORY.name().equals(kind) && !stat.isDirectory()) {
                    converted.add(Row.read(rs));
                }
                if (same && !stale) {
                    seen[i] = unchangedRow;       // nothing to write: the row already says what this scan saw
                    unchanged++;
                } else {
                    seen[i] = same ? staleOnly : changedRow;
                }
            }
        }
        for (Row old : converted) {
            emptyIfNoLongerDirectory(old, entries.get(byName.get(old.name())).stat());
        }
        byName = null;                          // no longer needed; let a huge directory's index go
        executeInChunks(q(st.keepRow), keep, "id");
        executeInChunks(q(st.markStale), missing, "id");

        long added = 0, updated = 0;
        Sql.Bound insert = q(st.insertChild);
        List<Integer> batch = new ArrayList<>();
        for (int i = 0; i <= n; i++) {
            if (i < n) {
                WalkedEntry e = entries.get(i);
                if (!e.isReadable() || ids[i] != 0) {
                    continue;
                }
                bindEntry(insert, dir.id(), e.name(), e.stat()).statement.addBatch();
                batch.add(i);
            }
            if (batch.size() == BATCH_ROWS || (i == n && !batch.isEmpty())) {
                for (int count : insert.statement.executeBatch()) {
                    if (count == 0) {
                        skipped++;
                    } else {
                        added++;
                    }
                }
                batch.clear();
            }
        }
        Sql.Bound update = q(st.updateChild);
        for (int i = 0; i <= n; i++) {
            if (i < n) {
                if (seen[i] != changedRow && seen[i] != staleOnly) {
                    continue;
                }
                WalkedEntry e = entries.get(i);
                bindEntry(update, 0, e.name(), e.stat()).set("id", ids[i]).statement.addBatch();
                batch.add(i);
            }
            if (batch.size() == BATCH_ROWS || (i == n && !batch.isEmpty())) {
                int[] counts = update.statement.executeBatch();
                for (int b = 0; b < counts.length; b++) {
                    int at = batch.get(b);
                    if (counts[b] == 0) {
                        // Gone since it was read (swept by the scan whose stale mark it had) or taken by a newer
                        // scan: the upsert re-inserts the first (with a new id, read back before any claim) and
                        // leaves the second alone.
                        ids[at] = 0;
                        WalkedEntry e = entries.get(at);
                        if (bindEntry(q(st.upsertChild), dir.id(), e.name(), e.stat()).statement.executeUpdate() == 0) {
                            skipped++;
                        } else {
                            added++;
                        }
                    } else if (seen[at] == staleOnly) {
                        unchanged++;              // only its stale mark was taken back
                    } else {
                        updated++;
                    }
                }
                batch.clear();
            }
        }

        List<Directory> subdirectories = new ArrayList<>();
        LongList toClaim = new LongList();
        List<String> names = new ArrayList<>();
        Map<String, Long> insertedDirectories = null;
        for (int i = 0; i < n; i++) {
            WalkedEntry e = entries.get(i);
            if (!e.isReadable() || !e.stat().isDirectory()) {
                continue;
            }
            long id = ids[i];
            if (id == 0) {
                // Inserted just now, or by another scan meanwhile (READ COMMITTED): read the ids back, once.
                if (insertedDirectories == null) {
                    insertedDirectories = childDirectoryIds(dir.id());
                }
                id = insertedDirectories.getOrDefault(e.name(), 0L);
            }
            // The claim itself checks the row's kind as it is now.
            if (id != 0) {
                toClaim.add(id);
                names.add(e.name());
            } else {
                skipped++;
            }
        }
        boolean[] claimed = claim(toClaim);
        for (int i = 0; i < claimed.length; i++) {
            if (claimed[i]) {
                subdirectories.add(new Directory(toClaim.get(i), dir.id(), names.get(i),
                        dir.path().resolve(names.get(i))));
            } else {
                skipped++;
            }
        }
        return new Applied(subdirectories, added, updated, unchanged, skipped);
    }

    /** The ids of the directory rows below {@code dir}, by name, in one query. */
    private Map<String, Long> childDirectoryIds(long dir) throws SQLException {
        Map<String, Long> ids = new HashMap<>();
        try (ResultSet rs = q(st.selectChildDirectories).set("dir", dir).statement.executeQuery()) {
            while (rs.next()) {
                ids.put(rs.getString(2), rs.getLong(1));
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

        int size() {
            return size;
        }
    }

    /**
     * Claims each directory for this scan; a directory some newer scan has already listed is not won. Marks nothing:
     * the listing that follows marks what it finds missing.
     */
    private boolean claimOne(long dir) throws SQLException {
        LongList one = new LongList();
        one.add(dir);
        return claim(one)[0];
    }

    private boolean[] claim(LongList dirs) throws SQLException {
        boolean[] won = new boolean[dirs.size()];
        if (dirs.size() == 0) {
            return won;
        }
        Sql.Bound claim = q(st.claimDirectory);
        for (int i = 0; i < dirs.size(); i++) {
            claim.set("dir", dirs.get(i)).set("scan", scan).statement.addBatch();
            if ((i + 1) % BATCH_ROWS == 0 || i + 1 == dirs.size()) {
                int[] counts = claim.statement.executeBatch();
                int first = i + 1 - counts.length;
                for (int c = 0; c < counts.length; c++) {
                    won[first + c] = counts[c] > 0;
                }
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
    }

    @Override
    public void vanished(Directory dir, FileStat replacement) {
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
                emptyIfNoLongerDirectory(old, replacement);
            }
            return bindEntry(q(dir.parentId() == 0 ? st.upsertTopLevel : st.upsertChild), dir.parentId(), dir.name(),
                    replacement).statement.executeUpdate();
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
            return write(conn -> {
                if (!completed) {
                    q(st.unmarkAll).set("scan", scan).statement.executeUpdate();
                    return 0L;
                }
                long gone = deleteSubtrees(st.countSweep, st.sweepBelow, st.sweep, "scan", scan);
                return gone + removedEarly;
            });
        } finally {
            closeStatements();
        }
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
        return q.set("kind", stat.kind().name()).set("size", stat.size())
                .set("mtime", stat.mtimeNanos()).set("link", stat.linkTarget()).set("scan", scan);
    }

    private <T> T write(Database.Work<T> work) {
        try {
            T result = db.write(c, conn -> {
                removedInTransaction = 0;   // a retried transaction starts its count again
                return work.run(conn);
            });
            removedEarly += removedInTransaction;
            return result;
        } catch (BlockedDeletion e) {
            throw e.explain(c, db, st.t, "scan " + scan);
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect.name() + " error in scan " + scan + ": " + e.getMessage(), e);
        }
    }
}
