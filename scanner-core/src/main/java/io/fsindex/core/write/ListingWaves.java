package io.fsindex.core.write;

import io.fsindex.api.FileSink.Applied;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a group of listings in waves, each wave one statement per step for all its directories: the owner
 * check, the diff against the rows, then moves, inserts, updates and claims.
 */
final class ListingWaves {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;
    private final Set<Long> freshDirs;
    private final boolean movesPossible;

    ListingWaves(WriteContext ctx, Sweeper sweeper, MoveDetector moves, RowWriter rows, RowUpdater updates, Claims claims) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
        this.freshDirs = ctx.freshDirs();
        this.movesPossible = ctx.movesPossible();
        this.sweeper = sweeper;
        this.moves = moves;
        this.rows = rows;
        this.updates = updates;
        this.claims = claims;
    }

    private final Sweeper sweeper;
    private final MoveDetector moves;
    private final RowWriter rows;
    private final RowUpdater updates;
    private final Claims claims;

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
    List<GroupResult> applyGroup(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings)
            throws SQLException {
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
                out[wave.get(w)] = new GroupResult(waveListings.get(w).dir(), a);
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
    }

    /**
     * Applies the listings of up to {@link Statements.ForIds#MAX_IDS} directories, none an ancestor of another,
     * inside the caller's transaction: each step (the owner check, reading the existing rows, inserting, updating,
     * recording the changes, claiming subdirectories) is one statement or one batch for all of them, so a server
     * sees a few round trips per wave instead of a few per directory. See the class comment for what a listing does.
     */
    List<Applied> applyWave(List<Listing> wave) throws SQLException {
        if (wave.isEmpty()) {
            return List.of();
        }
        long[] dirIds = wave.stream().mapToLong(l -> l.dir().id()).toArray();
        Map<Long, Long> listedBy = new HashMap<>();
        try (ResultSet rs = ctx.forIds(st.owners, dirIds, dirIds.length).statement.executeQuery()) {
            while (rs.next()) {
                listedBy.put(rs.getLong(1), rs.getLong(2));
            }
        }
        List<Listing> owned = new ArrayList<>();
        Map<Long, Listing> byDir = new HashMap<>();
        for (Listing l : wave) {
            // Listed once (a huge directory part by part, leaving with its last part or when lost).
            long dir = l.dir().id();
            l.markFresh(l.isPart() ? freshDirs.contains(dir) : freshDirs.remove(dir));
            Long by = listedBy.get(dir);
            if (by != null && by <= scan) {
                // Not claimed since by a newer scan (nor gone): this scan's listing applies.
                l.own();
                owned.add(l);
                byDir.put(dir, l);
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

    /** Points each listing at its directory's path in the index where a move took it elsewhere since it was listed. */
    private void followMoves(List<Listing> owned) throws SQLException {
        for (Listing l : owned) {
            l.relocate(ctx.current(l.dir()));
        }
    }

    /** The one listing of {@code owned} if it is a part of a directory's listing ({@link #applyPart}), else null. */
    static Listing onlyPart(List<Listing> owned) {
        return owned.size() == 1 && owned.get(0).isPart() ? owned.get(0) : null;
    }

    void applyOwned(List<Listing> owned, Map<Long, Listing> byDir) throws SQLException {
        followMoves(owned);
        // A directory this scan inserted (freshDirs) has no rows to compare its listing with: none is read.
        Listing part = onlyPart(owned);
        if (part != null) {
            if (!part.isFresh()) {
                ConnectionStatements.inPieces(part.entries().stream().map(WalkedEntry::name).toList(), st.childrenNamed,
                        (names, n) -> {
                    try (ResultSet rs = ctx.forNames(st.childrenNamed, part.dir().id(), names, n).statement
                            .executeQuery()) {
                        while (rs.next()) {
                            part.compare(rs, scan, log);
                        }
                    }
                });
            }
        } else {
            long[] dirIds = owned.stream().filter(l -> !l.isFresh()).mapToLong(l -> l.dir().id()).toArray();
            if (dirIds.length > 0) {
                try (ResultSet rs = ctx.forIds(st.childrenOf, dirIds, dirIds.length).statement.executeQuery()) {
                    while (rs.next()) {
                        byDir.get(rs.getLong(Row.PARENT)).compare(rs, scan, log);
                    }
                }
            }
        }
        LongList keep = new LongList();
        LongList missing = new LongList();
        for (Listing l : owned) {
            for (Row old : l.convertedDirectories()) {
                int at = l.byName().indexOf(old.name());
                sweeper.emptyIfNoLongerDirectory(old, l.entry(at).stat(), l.pathOf(at));
            }
            l.dropNameIndex();
            l.collectMarks(keep, missing);
        }
        ctx.executeInChunks(ctx.q(st.keepRow), keep, "id");
        ctx.executeInChunks(ctx.q(st.markStale), missing, "id");
        if (movesPossible) {
            moves.findMoves(owned);
            followMoves(owned);                 // one listing's directory may have moved with another's
        }
        rows.insertNew(owned);
        updates.updateChanged(owned);
        if (!st.knowsNewIds()) {
            // Only listings that inserted rows without learning their ids have them to record: an unchanged rescan
            // skips both statements.
            List<Listing> readBack = owned.stream().filter(Listing::needsInsertedReadBack).toList();
            if (!readBack.isEmpty()) {
                rows.recordInserted(readBack);
            }
        }
        claims.claimSubdirectories(owned);
    }
}
