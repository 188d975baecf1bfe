package io.fsindex.testkit;

import io.fsindex.core.scan.ListingPause;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The concurrent-scan protocol under random interleavings, on a real database and a real filesystem. Each try builds
 * a small random tree, indexes it, then runs a random schedule: filesystem changes, full and subtree scans started in
 * random order, and single steps of running scans. Every scan runs on a {@link SteppingWalker} that stops it when it
 * starts, before it lists a directory and after it has read the listing (so it can hold a stale listing across
 * changes and newer scans); the schedule decides which stopped scan takes its next step, and only one scan moves at a
 * time, so a try is fully determined by its generated values. The scans walk as every scan does, reading listings on
 * a walker thread ahead of applying them; a stop comes once the scan has applied what it read before
 * ({@link ListingPause}), so a listing may be read before its directory is claimed and applied steps later. jqwik reports the seed and the shrunk schedule of a
 * failing try; {@code @Property(seed = "...")} replays it.
 *
 * <p>After every step (all scans stopped or finished) the file table must hold no row under a non-directory, no
 * orphan, no stale mark of a finished scan, and no row below a directory that differs from what the directory's
 * newest lister saw unless that scan or a newer one wrote it; no row's scan_id or listed_by may have gone down; and a path that
 * has existed all along since every running scan started must keep its row. After the last change a final full scan
 * starts, possibly while older scans still hold stale listings: when it has finished the index must equal the tree,
 * and again once every scan has finished, with no stale mark left.
 *
 * <p>A dialect's test extends this class like {@link FsIndexConformanceTest}. jqwik does not run JUnit Jupiter
 * extensions, so create the database's directory in a static {@code @BeforeContainer} method instead of with
 * {@code @TempDir}, and delete it leniently in {@code @AfterContainer}: after a failure, a try abandoned at jqwik's
 * shrinking time bound may still be closing its index.
 */
public abstract class ScanPropertyConformanceTest {
    /** The database under test; called once per try, so return a shared instance. */
    protected abstract TestDatabase database();

    /** A change to the tree; {@code target}, {@code place} and {@code name} pick among what exists when it runs. */
    enum Change { ADD_FILE, ADD_DIR, DELETE, MODIFY_FILE, DIR_TO_FILE, FILE_TO_DIR, RENAME }

    /** One step of a schedule. */
    sealed interface Step permits Mutate, StartScan, Advance {
    }

    /** Changes the tree on disk. */
    record Mutate(Change change, int target, int place, int name, int size) implements Step {
    }

    /** Starts a scan of the whole tree, or of one entry in it (a directory or a file). */
    record StartScan(boolean full, int target) implements Step {
    }

    /** Lets one stopped scan (picked among those stopped) take one step. */
    record Advance(int pick) implements Step {
    }

    // Guards the whole protocol (scan_id guards, listed_by gate, stale ownership, sweep) under random interleavings.
    @Property(tries = 60)
    void interleavedScansAndChangesLeaveTheIndexEqualToTheTree(
            @ForAll("initialTrees") List<Mutate> initialTree,
            @ForAll("schedules") List<Step> schedule,
            @ForAll("finalPicks") List<Integer> finalPicks) throws Exception {
        try (PropertyTry run = new PropertyTry(database())) {
            initialTree.forEach(run::mutate);
            run.scanToCompletion();
            for (Step step : schedule) {
                if (step instanceof Mutate m) {
                    run.mutate(m);
                } else if (step instanceof StartScan s) {
                    run.start(s);
                } else if (step instanceof Advance a) {
                    run.advance(a.pick());
                }
                run.checkQuiescentInvariants();
            }

            // The final full scan starts after the last change; older scans may still hold stale listings.
            SteppedScan last = run.startFinal();
            int i = 0;
            while (!last.done) {
                run.advance(i < finalPicks.size() ? finalPicks.get(i++) : run.positionOf(last));
                run.checkQuiescentInvariants();
            }
            run.checkFinished(last);
            run.checkIndexEqualsTree("when the final scan finished");

            while (run.anyStopped()) {
                run.advance(finalPicks.isEmpty() ? 0 : finalPicks.get(i++ % finalPicks.size()));
                run.checkQuiescentInvariants();
            }
            run.checkAllFinished();
            run.checkIndexEqualsTree("when every scan finished");
            run.checkNoStaleRows();
            Statistics.label("scans per try").collect(run.scans.size());
            Statistics.label("listings applied after a newer scan finished").collect(run.lateListings > 0);
        }
    }

    /**
     * A directory renamed while an older scan is about to list it, a file made at its old name and turned into a
     * directory, then a full scan: the renamed directory's children keep their rows under the new name.
     */
    @net.jqwik.api.Example
    void aDirectoryRenamedUnderAPausedScanKeepsItsChildrenWhenItsOldNameIsReused() throws Exception {
        interleavedScansAndChangesLeaveTheIndexEqualToTheTree(
                List.of(new Mutate(Change.ADD_FILE, 24, 96, 87, 39), new Mutate(Change.ADD_FILE, 2, 98, 2, 0),
                        new Mutate(Change.ADD_DIR, 20, 18, 16, 14)),
                List.of(new Mutate(Change.ADD_FILE, 25, 1, 76, 39), new StartScan(true, 22),
                        new Mutate(Change.ADD_FILE, 72, 27, 9, 9), new Advance(1), new Advance(20), new Advance(19),
                        new Mutate(Change.RENAME, 0, 98, 2, 0), new Advance(4), new Advance(10),
                        new Mutate(Change.ADD_FILE, 8, 28, 12, 6), new Mutate(Change.FILE_TO_DIR, 27, 30, 26, 39),
                        new Advance(1), new Advance(67), new Mutate(Change.ADD_FILE, 0, 0, 0, 0)),
                List.of(14, 81));
    }

    @Provide
    Arbitrary<List<Mutate>> initialTrees() {
        return mutation(Arbitraries.of(Change.ADD_FILE, Change.ADD_DIR)).list().ofMinSize(3).ofMaxSize(14);
    }

    @Provide
    Arbitrary<List<Step>> schedules() {
        Arbitrary<Integer> pick = Arbitraries.integers().between(0, 99);
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                Tuple.of(3, mutation(Arbitraries.of(Change.class))),
                Tuple.of(2, Combinators.combine(Arbitraries.of(true, false), pick).as(StartScan::new)),
                Tuple.of(7, pick.map(Advance::new)));
        return step.list().ofMinSize(4).ofMaxSize(40);
    }

    @Provide
    Arbitrary<List<Integer>> finalPicks() {
        return Arbitraries.integers().between(0, 99).list().ofMaxSize(30);
    }

    private static Arbitrary<Mutate> mutation(Arbitrary<Change> changes) {
        Arbitrary<Integer> pick = Arbitraries.integers().between(0, 99);
        return Combinators.combine(changes, pick, pick, pick, Arbitraries.integers().between(0, 40)).as(Mutate::new);
    }
}
