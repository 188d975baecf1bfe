package io.fsindex.core.write;

import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.internal.Statements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Claims directories for a scan: the subdirectories a wave of listings found, and the scan root.
 */
final class Claims {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final Set<Long> freshDirs;
    /** A directory scan's: claims only subdirectories new to their place ({@link #descendOnlyIntoNew}). */
    private boolean onlyNewSubdirectories;

    Claims(WriteContext ctx) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.freshDirs = ctx.freshDirs();
    }

    /**
     * From now on a listing claims (so the scan descends into) only the subdirectories that are new to their place
     * (inserted, moved here, back from being found gone) or were not directories before; the others are left
     * unclaimed and so unlisted, and nothing below them is marked or swept.
     */
    void descendOnlyIntoNew() {
        onlyNewSubdirectories = true;
    }

    /** Claims the listings' subdirectories for this scan, in one batch, and lists the ones won on each listing. */
    void claimSubdirectories(List<Listing> owned) throws SQLException {
        Map<Long, Map<String, ChildDirectory>> inserted = null;
        LongList toClaim = new LongList();
        List<Listing> claimers = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Listing l : owned) {
            for (int i = 0; i < l.size(); i++) {
                WalkedEntry e = l.entry(i);
                if (!e.isReadable() || !e.stat().isDirectory()) {
                    continue;
                }
                long id = l.idAt(i);
                // Not compared with a row (there was none) and written by this scan: insertNew's row, which went
                // in claimed already (listed_by = scan); any other row is claimed by the UPDATE below.
                boolean insertedClaimed = l.insertedHere(i);
                if (id == 0) {
                    // Inserted just now, or by another scan meanwhile: read the ids back, once for the wave.
                    if (inserted == null) {
                        inserted = childDirectoryIds(owned);
                    }
                    ChildDirectory child = inserted.getOrDefault(l.dir().id(), Map.of()).get(e.name());
                    id = child == null ? 0 : child.id();
                    insertedClaimed = child != null && child.scanId() == scan && l.notCompared(i);
                }
                if (insertedClaimed) {
                    freshDirs.add(id);
                    l.addSubdirectory(new Directory(id, l.dir().id(), e.name(), l.pathOf(i)));
                } else if (onlyNewSubdirectories && l.wasDirectoryHere(i)) {
                    continue;                   // a directory scan leaves a directory it had alone, unlisted
                } else if (id != 0) {
                    // The claim itself checks the row's kind as it is now.
                    toClaim.add(id);
                    claimers.add(l);
                    names.add(e.name());
                } else {
                    l.skip();
                }
            }
        }
        boolean[] claimed = claim(toClaim);
        for (int i = 0; i < claimed.length; i++) {
            Listing l = claimers.get(i);
            if (claimed[i]) {
                l.addSubdirectory(new Directory(toClaim.get(i), l.dir().id(), names.get(i),
                        l.dir().path().resolve(names.get(i))));
            } else {
                l.skip();
            }
        }
    }

    /** The ids of the directory rows below the listings' directories, by parent and name, in one query. */
    /** A subdirectory's row as read back after the listing's inserts. */
    record ChildDirectory(long id, long scanId) {
    }

    Map<Long, Map<String, ChildDirectory>> childDirectoryIds(List<Listing> owned) throws SQLException {
        long[] dirIds = owned.stream().mapToLong(l -> l.dir().id()).toArray();
        Map<Long, Map<String, ChildDirectory>> ids = new HashMap<>();
        try (ResultSet rs = ctx.forIds(st.childDirectoriesOf, dirIds, dirIds.length).statement.executeQuery()) {
            while (rs.next()) {
                ids.computeIfAbsent(rs.getLong(2), k -> new HashMap<>())
                        .put(rs.getString(3), new ChildDirectory(rs.getLong(1), rs.getLong(4)));
            }
        }
        return ids;
    }

    boolean claimOne(long dir) throws SQLException {
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
    boolean[] claim(LongList dirs) throws SQLException {
        boolean[] won = new boolean[dirs.size()];
        for (int from = 0; from < dirs.size(); from += Statements.ForIds.MAX_IDS) {
            int n = Math.min(Statements.ForIds.MAX_IDS, dirs.size() - from);
            long[] ids = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = dirs.get(from + i);
            }
            ctx.forIds(st.claimDirectories, ids, n).set("scan", scan).statement.executeUpdate();
            Set<Long> claimed = new HashSet<>();
            try (ResultSet rs = ctx.forIds(st.claimedDirectories, ids, n).set("scan", scan).statement.executeQuery()) {
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
}
