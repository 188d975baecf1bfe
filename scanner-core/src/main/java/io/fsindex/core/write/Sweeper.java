package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes rows out of the index: the subtree of a directory found replaced by a file, the rows a completed
 * scan marked stale (the sweep), and the orphans past their retention (the purge).
 */
final class Sweeper {
    private final WriteContext ctx;
    private final io.fsindex.core.internal.Database db;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;

    Sweeper(WriteContext ctx) {
        this.ctx = ctx;
        this.db = ctx.db();
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
    }

    /**
     * Called before this scan upserts {@code now} over {@code old}: if that turns a directory row into another kind,
     * lists the directory as empty first. It is claimed, so no older scan's late listing of it can insert children any
     * more, and its children go at once, since nothing can exist below a file (deferring that to the sweep would
     * leave them visible to lookups meanwhile, and forever if this scan failed). Only where old.scan_id <= scan and
     * (checked by every caller first) no newer scan has listed old's parent: a newer scan that claimed old would have
     * done so listing the parent, or as its own root, which it writes first; so no newer scan's rows are below it.
     */
    void emptyIfNoLongerDirectory(Row old, FileStat now, Path path) throws SQLException {
        if (!old.isDirectory() || now.isDirectory() || old.scanId() > scan) {
            return;
        }
        log.settleAdded();                      // its subtree may hold rows this transaction inserted
        // Already claimed by this scan: claiming again changes nothing, which MySQL reports as no row affected.
        if (old.listedBy() != scan) {
            Sql.Bound claim = ctx.q(st.claimDirectory);
            if (claim.set("dir", old.id()).set("scan", scan).statement.executeUpdate() == 0) {
                return;
            }
        }
        // Counted by what was in the index: orphans below it were counted when they were found gone.
        ctx.countRemoved(reportRemoved(old.id(), () -> path, false));
        deleteSubtrees(st.countDescendants, st.deleteDescendantsBelow, st.deleteChildren, "dir", old.id());
    }

    /**
     * Takes every row this scan marked stale, with everything below it, out of the index: each is reported deleted
     * and becomes an orphan (kept, invisible, for move detection until the purge). Directories go first, so a row
     * below two of them is reported once. Returns how many entries left the index.
     */
    long sweep() throws SQLException {
        long gone = 0;
        Map<Long, Path> parents = new HashMap<>();
        for (Row top : staleRows(st.staleDirectories)) {
            gone += reportRemoved(top.id(), () -> pathOfChild(parents, top), true);
            ctx.q(st.setSubtreeGone).set("top", top.id()).set("now", log.now()).statement.executeUpdate();
        }
        // Locked as they are read: a newer scan's sweep may be taking one of them out right now.
        for (Row file : staleRows(st.staleFiles)) {
            log.change(file.id(), ChangeType.DELETED, file.kind(), pathOfChild(parents, file), null);
            gone++;
        }
        ctx.q(st.orphanStaleFiles).set("scan", scan).set("now", log.now()).statement.executeUpdate();
        ctx.q(st.unmarkAll).set("scan", scan).statement.executeUpdate();
        return gone;
    }

    /**
     * Reports deleted each entry of the subtree below row {@code top} (at {@code topPath}, asked for once the row is
     * held, so that its parent cannot go meanwhile) that is still in the index,
     * {@code top} too if asked, before the caller takes them out; returns how many it reported. Each level of the
     * subtree is read locked ({@link io.fsindex.core.spi.DialectStatements#lockedForWrite}) before the level below it: an older
     * scan writing below one of its directories holds that row shared until it commits, so the read waits for it and
     * the next level's read sees its rows; a scan about to write there waits for this transaction and then finds the
     * directory gone; and a row another sweep is taking out is read, after the wait, as that sweep left it, so no
     * entry is reported twice and none leaves unreported.
     */
    long reportRemoved(long top, PathOf topPath, boolean includeTop) throws SQLException {
        long count = 0;
        Path path;
        try (ResultSet rs = ctx.q(st.removedTop).set("top", top).statement.executeQuery()) {
            if (!rs.next()) {
                return 0;                       // deleted meanwhile, with everything below it
            }
            String kind = rs.getString("kind");
            rs.getLong("gone_at");
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
                try (ResultSet rs = ctx.forIds(st.removedChildren, piece, n).statement.executeQuery()) {
                    while (rs.next()) {
                        long id = rs.getLong("id");
                        String dirPath = level.get(rs.getLong("parent"));
                        String name = rs.getString("name");
                        String kind = rs.getString("kind");
                        rs.getLong("gone_at");
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
    interface PathOf {
        Path get() throws SQLException;
    }

    /** This scan's stale rows the statement selects: id, parent, name and kind only. */
    List<Row> staleRows(Sql select) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = ctx.q(select).set("scan", scan).statement.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(rs.getLong("id"), rs.getLong("parent"), rs.getString("name"), rs.getString("kind"),
                        0, 0, null, scan, 0, true, null, 0));
            }
        }
        return rows;
    }

    /**
     * The path of {@code row} from its parent's, looked up once per parent. A row the sweep holds cannot lose its
     * parent (deleting that would delete the row), so a missing one is a broken index, said as such.
     */
    Path pathOfChild(Map<Long, Path> parents, Row row) throws SQLException {
        if (row.parent() == 0) {
            return Path.of(row.name());
        }
        Path parent = parents.get(row.parent());
        if (parent == null) {
            parent = ctx.locate(row.parent()).path();
            if (parent == null) {
                throw new SQLException("row " + row.id() + " (" + row.name() + ") has no parent row "
                        + row.parent() + " in " + st.t.filesName());
            }
            parents.put(row.parent(), parent);
        }
        return parent.resolve(row.name());
    }

    /**
     * Deletes whole subtrees whose top rows {@code delete} removes, returning how many rows go in all. A subtree
     * deeper than the engine's cascade can go ({@link io.fsindex.core.spi.DialectStatements#maxCascadeDepth}) is first cut
     * from the bottom in bands with {@code deleteBelow}, so no cascade runs deeper than one band.
     *
     * @param count       counts the rows of the subtrees ({@code entries}) and their greatest depth ({@code depth})
     * @param deleteBelow deletes the rows deeper than {@code :depth}
     * @param delete      deletes the top rows; the cascade takes what is left below them
     */
    long deleteSubtrees(Sql count, Sql deleteBelow, Sql delete, String key, long value) throws SQLException {
        long rows;
        int depth;
        try (ResultSet rs = ctx.q(count).set(key, value).statement.executeQuery()) {
            rs.next();
            rows = rs.getLong("entries");
            depth = rs.getInt("depth");
        }
        int band = db.statements().maxCascadeDepth();
        for (int below = depth - band; below > 0; below -= band) {
            BlockedDeletion.execute(ctx.q(deleteBelow).set(key, value).set("depth", below));
        }
        BlockedDeletion.execute(ctx.q(delete).set(key, value));
        return rows;
    }
}
