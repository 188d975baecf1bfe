package io.fsindex.core.write;

import io.fsindex.api.FileSink;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanListener;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Listeners;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The database-backed {@link FileSink}: applies one scan's listings with the concurrent-scan protocol described in
 * the README ("Guarantees"). Every method is one retried write transaction on the scan's own connection, whose
 * statements are prepared once per scan.
 *
 * <p>Writes only what changed. Claiming a directory ({@code listed_by := scan}) is one row write and marks nothing;
 * applying its listing first checks, in the same transaction, that no newer scan has claimed it since (the owner
 * check of {@link ListingWaves#applyWave}, one statement for a whole wave of listings), then diffs the listing against the
 * rows: new names are inserted, changed or stale rows
 * are updated, rows missing from the listing are marked stale for this scan, and unchanged rows are not written at
 * all (they keep the {@code scan_id} of whichever scan last changed them). Every other write below a directory
 * (a partial scan's trunk and root, a vanished directory, a removed root) takes the same guard on the parent, so an
 * older scan never writes a row whose parent a newer scan has listed: the newer scan saw that row, and what it saw
 * stands even where it wrote nothing.
 *
 * <p>This class coordinates: each job is a class of this package. {@link TrunkWriter} writes the trunk and root,
 * {@link ListingWaves} applies groups of listings in waves, {@link PartedListings} a huge directory's listing in
 * parts, {@link Listing} diffs one listing against its rows, {@link MoveDetector} finds moved entries, {@link
 * RowWriter} inserts (or bulk-loads) new rows, {@link RowUpdater} writes changed ones, {@link Claims} claims
 * directories and {@link Sweeper} sweeps and purges; they share one {@link WriteContext}.
 *
 * <p>Every change it makes to an entry is written to the change feed in the same transaction ({@link ChangeLog}),
 * and an entry found gone is kept as an invisible orphan for {@link FeedSettings#orphanRetention()} so that a later
 * listing finding the same file identity elsewhere moves the row, keeping its id ({@link MoveDetector}).
 */
public final class SqlFileSink implements FileSink {
    private final WriteContext ctx;
    private final Claims claims;
    private final Statements st;
    private final long scan;
    private final FeedSettings settings;
    private final Sweeper sweeper;
    private final ListingWaves waves;
    private final PartedListings parts;
    private final TrunkWriter trunk;
    private final GroupShrinker groups;

    /**
     * A sink for scan {@code scan} writing on connection {@code c}; {@code partEntries} is the scan's part size for a
     * huge directory's listing, which sizes how many changes a transaction holds before it locks the feed head.
     */
    public SqlFileSink(Database db, Statements st, Connection c, long scan, Walker walker, ScanListener listener,
                FeedSettings settings, boolean fingerprintMoves, int partEntries) throws SQLException {
        this.st = st;
        this.scan = scan;
        this.settings = settings;
        this.ctx = new WriteContext(db, st, c, scan, walker, listener, Listeners.wantsChanges(listener),
                fingerprintMoves, 2 * partEntries);
        this.sweeper = new Sweeper(ctx);
        this.claims = new Claims(ctx);
        this.waves = new ListingWaves(ctx, sweeper, new MoveDetector(ctx), new RowWriter(ctx), new RowUpdater(ctx),
                claims);
        this.parts = new PartedListings(ctx, waves);
        this.trunk = new TrunkWriter(ctx, claims, sweeper);
        this.groups = new GroupShrinker(ctx, waves);
    }

    /**
     * Makes this the sink of a directory scan: a listing claims (so the scan descends into) only the subdirectories
     * new to their place; the others are neither listed nor marked, and nothing below them is swept.
     */
    public void descendOnlyIntoNew() {
        claims.descendOnlyIntoNew();
    }

    /** Rows this sink has bulk-loaded, counting those of transactions retried since. */
    long loadedRows() {
        return ctx.loadedRows();
    }

    /**
     * Whether the engine's bulk loader may be used: there is one, the server and driver allow loads, and no load has
     * failed in this scan.
     */
    boolean loaderUsable() {
        return ctx.loads().loaderUsable();
    }

    @Override
    public Applied begin(List<WalkedEntry> trunkEntries, WalkedEntry root, Path rootPath) {
        return ctx.write(conn -> trunk.begin(trunkEntries, root, rootPath));
    }

    @Override
    public Applied apply(Directory dir, List<WalkedEntry> entries) {
        return ctx.write(conn -> waves.applyWave(List.of(new Listing(dir, entries))).get(0));
    }

    /** Applies all the listings in one transaction: fewer commits for many small directories. */
    @Override
    public List<Applied> applyAll(List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return applyGroup(dirs.stream().map(Directory::path).toList(), dirs, listings).stream()
                .map(ListingWaves.GroupResult::applied).toList();
    }

    /** Applies the listings in one transaction, as {@link #applyGroup} does. */
    @Override
    public List<Applied> applyListings(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings) {
        return applyGroup(paths, dirs, listings).stream().map(ListingWaves.GroupResult::applied).toList();
    }

    /** Applies each part in a transaction of its own, as {@link PartedListings#applyPart} does. */
    @Override
    public ListingInParts applyInParts(Directory dir) {
        PartedListings.PartTally tally = new PartedListings.PartTally();
        return new ListingInParts() {
            @Override
            public Applied applyPart(List<WalkedEntry> part, boolean last) {
                return parts.applyPart(dir, part, tally, last);
            }

            @Override
            public Applied applied() {
                return tally.applied();
            }
        };
    }

    /**
     * Applies listings in one transaction, as {@link ListingWaves#applyGroup} does, or in several smaller ones if
     * that one keeps conflicting with concurrent transactions ({@link GroupShrinker}).
     */
    List<ListingWaves.GroupResult> applyGroup(List<Path> paths, List<Directory> dirs,
                                              List<List<WalkedEntry>> listings) {
        return groups.apply(paths, dirs, listings);
    }

    /** Applies one part of a directory's listing in its own transaction, as {@link PartedListings#applyPart} does. */
    Applied applyPart(Directory dir, List<WalkedEntry> part, PartedListings.PartTally tally, boolean last) {
        return parts.applyPart(dir, part, tally, last);
    }

    /**
     * Nothing to undo: claiming the directory marked none of its children, so they stay exactly as they were,
     * including marks an older scan's listing of it made (that scan saw those entries gone).
     */
    @Override
    public void unreadable(Directory dir) {
        ctx.freshDirs().remove(dir.id());
    }

    @Override
    public void vanished(Directory dir, FileStat replacement) {
        ctx.freshDirs().remove(dir.id());
        ctx.write(conn -> trunk.vanished(dir, replacement));
    }

    @Override
    public void removeRoot(List<WalkedEntry> trunkEntries, String rootName) {
        ctx.write(conn -> trunk.removeRoot(trunkEntries, rootName));
    }

    @Override
    public long finish(boolean completed) {
        try {
            long removed = ctx.write(conn -> {
                if (!completed) {
                    ctx.q(st.unmarkAll).set("scan", scan).statement.executeUpdate();
                    return 0L;
                }
                long gone = sweeper.sweep();
                long cutoff = ctx.log().now() - settings.orphanRetention().toMillis();
                sweeper.deleteSubtrees(st.countPurge, st.purgeBelow, st.purge, "cutoff", cutoff + 1);
                ctx.log().prune(settings.feedCapacity());
                return gone + ctx.removedEarly();
            });
            if (changedEnoughToAnalyze(ctx.insertedRows() + removed, ctx.maxIdAtStart())) {
                analyzeFiles();
            }
            return removed;
        } finally {
            ctx.sql().close();
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
            ctx.q(st.analyzeFiles).statement.execute();
        } catch (SQLException e) {
            // Only the next scans' speed depends on it; the scan itself has completed and committed.
        }
    }
}
