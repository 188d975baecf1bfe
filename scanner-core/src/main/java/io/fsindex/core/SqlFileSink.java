package io.fsindex.core;

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
            boolean descend = root.stat().isDirectory() && claim(List.of(row.id()))[0];
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

    /**
     * Applies several listings in one transaction, in order, as {@link #apply} would one by one: fewer commits for
     * many small directories. Each listing's subdirectories are claimed in the same transaction as its rows.
     */
    List<Applied> applyAll(List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return write(conn -> {
            List<Applied> out = new ArrayList<>(dirs.size());
            for (int i = 0; i < dirs.size(); i++) {
                out.add(applyListing(dirs.get(i), listings.get(i)));
            }
            return out;
        });
    }

    /** One directory's listing, inside the caller's transaction; see the class comment. */
    private Applied applyListing(Directory dir, List<WalkedEntry> entries) throws SQLException {
        if (!mayWriteUnder(dir.id())) {
            // A newer scan has claimed the directory since this scan did (or it is gone): its listing decides.
            long readable = entries.stream().filter(WalkedEntry::isReadable).count();
            return new Applied(List.of(), 0, 0, 0, readable);
        }
        Map<String, Row> before = children(dir.id());
        for (WalkedEntry e : entries) {
            Row old = e.isReadable() ? before.get(e.name()) : null;
            if (old != null) {
                emptyIfNoLongerDirectory(old, e.stat());
            }
        }
        long added = 0, updated = 0, unchanged = 0, skipped = 0;
        List<WalkedEntry> inserted = new ArrayList<>();
        List<WalkedEntry> changed = new ArrayList<>();
        List<Row> changedRows = new ArrayList<>();
        /** Directory entries to claim, with their row where it existed before. */
        List<WalkedEntry> dirs = new ArrayList<>();
        List<Row> dirRows = new ArrayList<>();
        Sql.Bound insert = null, update = null, keep = null, mark = null;
        for (WalkedEntry e : entries) {
            Row old = before.remove(e.name());    // what remains in `before` afterwards is missing from the listing
            if (!e.isReadable()) {
                // Exists, attributes unknown: keep the row as it is; only take over an older scan's stale mark, so
                // that scan does not delete what this newer scan has seen exist.
                if (old != null && old.stale() && old.scanId() < scan) {
                    keep = keep != null ? keep : q(st.keepRow);
                    keep.set("id", old.id()).set("scan", scan).statement.addBatch();
                }
                continue;
            }
            if (old == null) {
                insert = insert != null ? insert : q(st.upsertChild);
                bindEntry(insert, dir.id(), e.name(), e.stat()).statement.addBatch();
                inserted.add(e);
            } else if (old.scanId() > scan) {
                skipped++;                        // a newer scan wrote this row; what it recorded stands
            } else if (old.stale() || !old.sameAs(e.stat())) {
                update = update != null ? update : q(st.updateChild);
                bindEntry(update, 0, e.name(), e.stat()).set("id", old.id()).statement.addBatch();
                changed.add(e);
                changedRows.add(old);
            } else {
                unchanged++;                      // nothing to write: the row already says what this scan saw
            }
            if (e.stat().isDirectory()) {
                dirs.add(e);
                dirRows.add(old);
            }
        }
        for (Row gone : before.values()) {
            if (gone.scanId() < scan || (gone.scanId() == scan && !gone.stale())) {
                mark = mark != null ? mark : q(st.markStale);
                mark.set("id", gone.id()).set("scan", scan).statement.addBatch();
            }
        }
        if (keep != null) {
            keep.statement.executeBatch();
        }
        if (mark != null) {
            mark.statement.executeBatch();
        }
        if (insert != null) {
            int[] counts = insert.statement.executeBatch();
            for (int count : counts) {
                if (count == 0) {
                    skipped++;
                } else {
                    added++;
                }
            }
        }
        if (update != null) {
            int[] counts = update.statement.executeBatch();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == 0) {
                    // Gone since it was read (swept by the scan whose stale mark it had) or taken by a newer scan:
                    // the upsert re-inserts the first and leaves the second alone.
                    int d = dirRows.indexOf(changedRows.get(i));
                    if (d >= 0) {
                        dirRows.set(d, null);     // a re-inserted row has a new id: read it back before claiming
                    }
                    Sql.Bound upsert = q(st.upsertChild);
                    if (bindEntry(upsert, dir.id(), changed.get(i).name(), changed.get(i).stat())
                            .statement.executeUpdate() == 0) {
                        skipped++;
                    } else {
                        added++;
                    }
                } else if (changedRows.get(i).sameAs(changed.get(i).stat())) {
                    unchanged++;                  // only its stale mark was taken back
                } else {
                    updated++;
                }
            }
        }
        List<Directory> subdirectories = new ArrayList<>();
        if (!dirs.isEmpty()) {
            List<Long> ids = new ArrayList<>(dirs.size());
            List<String> names = new ArrayList<>(dirs.size());
            for (int i = 0; i < dirs.size(); i++) {
                Row row = dirRows.get(i);
                if (row == null) {
                    // Inserted just now, or by another scan meanwhile (READ COMMITTED): read its id back.
                    row = find(dir.id(), dirs.get(i).name());
                }
                // The claim itself checks the row's kind as it is now.
                if (row != null) {
                    ids.add(row.id());
                    names.add(dirs.get(i).name());
                }
            }
            boolean[] claimed = claim(ids);
            for (int i = 0; i < claimed.length; i++) {
                if (claimed[i]) {
                    subdirectories.add(new Directory(ids.get(i), dir.id(), names.get(i),
                            dir.path().resolve(names.get(i))));
                }
            }
            skipped += dirs.size() - subdirectories.size();
        }
        return new Applied(subdirectories, added, updated, unchanged, skipped);
    }

    /**
     * Claims each directory for this scan; a directory some newer scan has already listed is not won. Marks nothing:
     * the listing that follows marks what it finds missing.
     */
    private boolean[] claim(List<Long> dirs) throws SQLException {
        boolean[] won = new boolean[dirs.size()];
        if (dirs.isEmpty()) {
            return won;
        }
        Sql.Bound claim = q(st.claimDirectory);
        for (long dir : dirs) {
            claim.set("dir", dir).set("scan", scan).statement.addBatch();
        }
        int[] counts = claim.statement.executeBatch();
        for (int i = 0; i < counts.length; i++) {
            won[i] = counts[i] > 0;
        }
        return won;
    }

    private Map<String, Row> children(long dir) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        Sql.Bound read = q(st.selectChildren);
        read.set("dir", dir);
        try (ResultSet rs = read.statement.executeQuery()) {
            while (rs.next()) {
                Row r = Row.read(rs);
                rows.put(r.name(), r);
            }
        }
        return rows;
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
            q(deleteBelow).set(key, value).set("depth", below).statement.executeUpdate();
        }
        q(delete).set(key, value).statement.executeUpdate();
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
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect.name() + " error in scan " + scan + ": " + e.getMessage(), e);
        }
    }
}
