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
import java.util.List;
import java.util.Map;

/**
 * The database-backed {@link FileSink}: applies one scan's listings with the concurrent-scan protocol described in
 * the README ("Guarantees"). Every method is one retried write transaction on the scan's own connection.
 */
final class SqlFileSink implements FileSink {
    private final Database db;
    private final Statements st;
    private final Connection c;
    private final long scan;
    /** Rows removed before the sweep (contents of directories this scan found replaced by files), for the result. */
    private long removedEarly;
    private long removedInTransaction;

    SqlFileSink(Database db, Statements st, Connection c, long scan) {
        this.db = db;
        this.st = st;
        this.c = c;
        this.scan = scan;
    }

    @Override
    public Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath) {
        return write(conn -> {
            long parent = 0;
            long added = 0;
            for (WalkedEntry e : trunk) {
                Row before = find(parent, e.name());
                Row row = upsertAndFind(parent, e);
                if (row == null || !row.isDirectory()) {
                    // Missing, or recorded as a non-directory by a newer scan: nothing may be hung under it.
                    return new Applied(List.of(), added, 0, 0, 1);
                }
                added += before == null ? 1 : 0;
                parent = row.id();
            }
            Row before = find(parent, root.name());
            Row row = upsertAndFind(parent, root);
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
     * leave them visible to lookups meanwhile, and forever if this scan failed). Only where old.scan_id <= scan, so
     * where the upsert will apply: a row no newer scan has written is one no newer scan has claimed, descended
     * through, or whose parent it has claimed; so no newer scan's rows are below it.
     */
    private void emptyIfNoLongerDirectory(Row old, FileStat now) throws SQLException {
        if (!old.isDirectory() || now.isDirectory() || old.scanId() > scan) {
            return;
        }
        // Already claimed by this scan: claiming again changes nothing, which MySQL reports as no row affected.
        if (old.listedBy() != scan) {
            try (Sql.Bound claim = st.claimDirectory.prepare(c)) {
                if (claim.set("dir", old.id()).set("scan", scan).statement.executeUpdate() == 0) {
                    return;
                }
            }
        }
        removedInTransaction += deleteSubtrees(st.countDescendants, st.deleteDescendantsBelow, st.deleteChildren,
                "dir", old.id());
    }

    /** Upserts one trunk or root entry and reads its row back; null if the row is missing (a newer scan covers it). */
    private Row upsertAndFind(long parent, WalkedEntry e) throws SQLException {
        Row old = find(parent, e.name());
        if (old != null) {
            emptyIfNoLongerDirectory(old, e.stat());
        }
        try (Sql.Bound upsert = (parent == 0 ? st.upsertTopLevel : st.upsertChild).prepare(c)) {
            bindEntry(upsert, parent, e.name(), e.stat()).statement.executeUpdate();
        }
        return find(parent, e.name());
    }

    private Row find(long parent, String name) throws SQLException {
        try (Sql.Bound q = (parent == 0 ? st.selectTopLevel : st.selectChild).prepare(c)) {
            q.set("name", name);
            if (parent != 0) {
                q.set("parent", parent);
            }
            try (ResultSet rs = q.statement.executeQuery()) {
                return rs.next() ? Row.read(rs) : null;
            }
        }
    }

    @Override
    public Applied apply(Directory dir, List<WalkedEntry> entries) {
        return write(conn -> {
            Map<String, Row> before = children(dir.id());
            for (WalkedEntry e : entries) {
                Row old = e.isReadable() ? before.get(e.name()) : null;
                if (old != null) {
                    emptyIfNoLongerDirectory(old, e.stat());
                }
            }
            long added = 0, updated = 0, unchanged = 0, skipped = 0;
            List<WalkedEntry> readable = new ArrayList<>(entries.size());
            try (Sql.Bound upsert = st.upsertChild.prepare(c); Sql.Bound keep = st.keepChild.prepare(c)) {
                boolean keeping = false;
                for (WalkedEntry e : entries) {
                    if (e.isReadable()) {
                        bindEntry(upsert, dir.id(), e.name(), e.stat()).statement.addBatch();
                        readable.add(e);
                    } else if (before.containsKey(e.name())) {
                        keep.set("parent", dir.id()).set("name", e.name()).set("scan", scan).statement.addBatch();
                        keeping = true;
                    }
                }
                int[] counts = readable.isEmpty() ? new int[0] : upsert.statement.executeBatch();
                if (keeping) {
                    keep.statement.executeBatch();
                }
                for (int i = 0; i < counts.length; i++) {
                    WalkedEntry e = readable.get(i);
                    Row old = before.get(e.name());
                    if (counts[i] == 0) {
                        skipped++;
                    } else if (old == null) {
                        added++;
                    } else if (old.sameAs(e.stat())) {
                        unchanged++;
                    } else {
                        updated++;
                    }
                }
            }
            List<Directory> subdirectories = new ArrayList<>();
            List<WalkedEntry> dirs = readable.stream().filter(e -> e.stat().isDirectory()).toList();
            if (!dirs.isEmpty()) {
                // Read after the upserts, always: under READ COMMITTED (PostgreSQL, MySQL) `before` may lack a row
                // another scan committed since, which this scan still may and must claim; and an updated row may have
                // just become a directory.
                Map<String, Row> after = children(dir.id());
                List<Long> ids = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (WalkedEntry e : dirs) {
                    Row row = after.get(e.name());
                    // The row's kind in 'before' may predate this listing (a file that became a directory);
                    // the claim itself checks the kind as it is now.
                    if (row != null) {
                        ids.add(row.id());
                        names.add(e.name());
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
        });
    }

    /**
     * Claims each directory for this scan and, in the same transaction, marks the children of those it won stale;
     * a directory some newer scan has already listed is not won.
     */
    private boolean[] claim(List<Long> dirs) throws SQLException {
        boolean[] won = new boolean[dirs.size()];
        if (dirs.isEmpty()) {
            return won;
        }
        try (Sql.Bound claim = st.claimDirectory.prepare(c); Sql.Bound mark = st.markChildrenStale.prepare(c)) {
            for (long dir : dirs) {
                claim.set("dir", dir).set("scan", scan).statement.addBatch();
            }
            int[] counts = claim.statement.executeBatch();
            boolean marking = false;
            for (int i = 0; i < counts.length; i++) {
                won[i] = counts[i] > 0;
                if (won[i]) {
                    mark.set("dir", dirs.get(i)).set("scan", scan).statement.addBatch();
                    marking = true;
                }
            }
            if (marking) {
                mark.statement.executeBatch();
            }
        }
        return won;
    }

    private Map<String, Row> children(long dir) throws SQLException {
        Map<String, Row> rows = new HashMap<>();
        try (Sql.Bound q = st.selectChildren.prepare(c)) {
            q.set("dir", dir);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    Row r = Row.read(rs);
                    rows.put(r.name(), r);
                }
            }
        }
        return rows;
    }

    @Override
    public void unreadable(Directory dir) {
        write(conn -> {
            try (Sql.Bound q = st.unmarkChildren.prepare(c)) {
                return q.set("dir", dir.id()).set("scan", scan).statement.executeUpdate();
            }
        });
    }

    @Override
    public void vanished(Directory dir, FileStat replacement) {
        write(conn -> {
            if (replacement == null) {
                try (Sql.Bound q = st.markStale.prepare(c)) {
                    return q.set("id", dir.id()).set("scan", scan).statement.executeUpdate();
                }
            }
            Row old = find(dir.parentId(), dir.name());
            if (old != null && old.id() == dir.id()) {
                emptyIfNoLongerDirectory(old, replacement);
            }
            try (Sql.Bound q = (dir.parentId() == 0 ? st.upsertTopLevel : st.upsertChild).prepare(c)) {
                return bindEntry(q, dir.parentId(), dir.name(), replacement).statement.executeUpdate();
            }
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
            if (root == null) {
                return 0;
            }
            try (Sql.Bound q = st.markStale.prepare(c)) {
                return q.set("id", root.id()).set("scan", scan).statement.executeUpdate();
            }
        });
    }

    @Override
    public long finish(boolean completed) {
        return write(conn -> {
            if (!completed) {
                try (Sql.Bound q = st.unmarkAll.prepare(c)) {
                    q.set("scan", scan).statement.executeUpdate();
                }
                return 0L;
            }
            long gone = deleteSubtrees(st.countSweep, st.sweepBelow, st.sweep, "scan", scan);
            return gone + removedEarly;
        });
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
        try (Sql.Bound q = count.prepare(c)) {
            try (ResultSet rs = q.set(key, value).statement.executeQuery()) {
                rs.next();
                rows = rs.getLong(1);
                depth = rs.getInt(2);
            }
        }
        int band = db.dialect.maxCascadeDepth();
        for (int below = depth - band; below > 0; below -= band) {
            try (Sql.Bound q = deleteBelow.prepare(c)) {
                q.set(key, value).set("depth", below).statement.executeUpdate();
            }
        }
        try (Sql.Bound q = delete.prepare(c)) {
            q.set(key, value).statement.executeUpdate();
        }
        return rows;
    }

    private Sql.Bound bindEntry(Sql.Bound q, long parent, String name, FileStat stat) throws SQLException {
        if (parent != 0) {
            q.set("parent", parent);
        }
        return q.set("name", name).set("kind", stat.kind().name()).set("size", stat.size())
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
