package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink.Applied;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Writes the rows outside any listing: a scan's trunk and root, a directory found vanished or replaced, and a
 * root found missing.
 */
final class TrunkWriter {
    private final WriteContext ctx;
    private final Claims claims;
    private final Sweeper sweeper;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;
    private final Set<Long> freshDirs;

    TrunkWriter(WriteContext ctx, Claims claims, Sweeper sweeper) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
        this.freshDirs = ctx.freshDirs();
        this.claims = claims;
        this.sweeper = sweeper;
    }

    /** Writes the trunk down to the scan root and the root, and claims the root; see {@link SqlFileSink#begin}. */
    Applied begin(List<WalkedEntry> trunk, WalkedEntry root, Path rootPath) throws SQLException {
        long parent = 0;
        long added = 0;
        Path path = null;
        for (WalkedEntry e : trunk) {
            path = path == null ? Path.of(e.name()) : path.resolve(e.name());
            Row before = ctx.findForWrite(parent, e.name());
            Row row = upsertAndFind(parent, e, before, path);
            if (row == null || !row.isDirectory()) {
                // Missing, or recorded as a non-directory by a newer scan: nothing may be hung under it.
                return new Applied(List.of(), added, 0, 0, 0, 1);
            }
            added += recordUpsert(before, row, e, path) == ChangeType.ADDED ? 1 : 0;
            parent = row.id();
        }
        Row before = ctx.findForWrite(parent, root.name());
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
        boolean descend = root.stat().isDirectory() && claims.claimOne(row.id());
        if (!descend) {
            return new Applied(List.of(), added + rootAdded, rootModified, 0, rootUnchanged,
                    root.stat().isDirectory() ? 1 : rootSkipped);
        }
        rootIsFresh(row.id());
        return new Applied(List.of(new Directory(row.id(), parent, root.name(), rootPath)), added + rootAdded,
                rootModified, 0, rootUnchanged, rootSkipped);
    }

    /**
     * Once this scan has claimed its root, counts the root among {@link #freshDirs} if no row is below it (a cold
     * scan's root, or one found empty): its listing then goes the way of any directory this scan inserted, reading
     * no rows and by the bulk loader where there is one, part by part for a huge root as for a huge directory below
     * it. Read after the claim, whose row lock waited for any older scan still writing below the root (each holds a
     * share lock on it from its owner check until it commits; on SQLite every writer waits for the others), so the
     * read sees such rows; none can be written below it afterwards but a newer
     * partial scan's trunk, which a fresh directory's listing leaves alone.
     */
    void rootIsFresh(long root) throws SQLException {
        try (ResultSet rs = ctx.q(st.anyChild).set("dir", root).statement.executeQuery()) {
            if (rs.next()) {
                freshDirs.remove(root);             // a retried transaction may have found it empty
            } else {
                freshDirs.add(root);
            }
        }
    }

    /** Records what upserting {@code e} over {@code before} did to {@code after}, if this scan changed it. */
    ChangeType recordUpsert(Row before, Row after, WalkedEntry e, Path path) throws SQLException {
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
     * Upserts one trunk or root entry and reads its row back; null if the row is missing (a newer scan covers it).
     * Writes nothing where a newer scan has listed the parent: that scan saw this entry, and its view stands.
     */
    Row upsertAndFind(long parent, WalkedEntry e, Row old, Path path) throws SQLException {
        if (parent != 0 && !ctx.mayWriteUnder(parent)) {
            return old;
        }
        if (old != null) {
            sweeper.emptyIfNoLongerDirectory(old, e.stat(), path);
        }
        ctx.bindEntry(ctx.q(parent == 0 ? st.upsertTopLevel : st.upsertChild), parent, e.name(), e.stat())
                .statement.executeUpdate();
        return ctx.find(parent, e.name());
    }

    /** Records directory {@code dir} gone, or replaced by {@code replacement}; see {@link SqlFileSink#vanished}. */
    int vanished(Directory dir, FileStat replacement) throws SQLException {
        // The directory's own row lives in its parent's listing: a newer scan that listed the parent has the say.
        if (!ctx.mayWriteUnder(dir.parentId())) {
            return 0;
        }
        if (replacement == null) {
            return ctx.q(st.markStale).set("id", dir.id()).set("scan", scan).statement.executeUpdate();
        }
        Row old = ctx.find(dir.parentId(), dir.name());
        if (old != null && old.id() == dir.id()) {
            sweeper.emptyIfNoLongerDirectory(old, replacement, dir.path());
        }
        int count = ctx.bindEntry(ctx.q(dir.parentId() == 0 ? st.upsertTopLevel : st.upsertChild), dir.parentId(),
                dir.name(), replacement).statement.executeUpdate();
        Row now = ctx.find(dir.parentId(), dir.name());
        if (now != null) {
            recordUpsert(old, now, new WalkedEntry(dir.name(), replacement), dir.path());
        }
        return count;
    }

    /** Marks a missing scan root stale; see {@link SqlFileSink#removeRoot}. */
    int removeRoot(List<WalkedEntry> trunk, String rootName) throws SQLException {
        long parent = 0;
        for (WalkedEntry e : trunk) {
            Row row = ctx.find(parent, e.name());
            if (row == null) {
                return 0;
            }
            parent = row.id();
        }
        Row root = ctx.find(parent, rootName);
        if (root == null || (parent != 0 && !ctx.mayWriteUnder(parent))) {
            return 0;
        }
        return ctx.q(st.markStale).set("id", root.id()).set("scan", scan).statement.executeUpdate();
    }
}
