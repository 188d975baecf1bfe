package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The huge-root scenario on one engine: a directory of N files scanned as the scan's root, compared with a scan of
 * its parent (where the same directory is an ordinary huge directory below the root) and with the engine's
 * bulk-load baseline of the same directory, all in the same run. A root that lists its entries some slower way than
 * any other directory shows as a root ÷ parent ratio well above 1.
 */
final class HugeRoot {
    /** The directory of N files, {@code PARENT/files}; the parent holds nothing else. */
    static final String DIRECTORY = "files";

    /** One measurement that may fail, as a baseline or a reset of the index does. */
    interface Step {
        void run() throws Exception;
    }

    /** The engine's bulk load of the directory's listing, in seconds. */
    interface Baseline {
        double seconds(Path dir) throws Exception;
    }

    /** Seconds of each kind of run, medians taken by the caller's report. */
    record Measured(Series baseline, Series parent, Series root) {
    }

    private final BenchRun run;
    private final Path parent;
    private final long n;

    /** The scenario on the directory {@code parent/files} of {@code n} files, which the caller generated. */
    HugeRoot(BenchRun run, Path parent, long n) {
        this.run = run;
        this.parent = parent;
        this.n = n;
    }

    /**
     * Measures the scenario on one engine and adds its rows: both cold scans against the engine's baseline of the
     * same directory and its cold-scan target, and the root's scan against its parent's.
     */
    void measure(String engine, String loader, String target, double maxRatio, Baseline baseline,
                 Supplier<FsIndex> open, Step reset) throws Exception {
        run.log(engine + ": the huge directory as root and its parent, " + run.runs + " run(s)");
        Measured m = measure(engine, baseline, open, reset);
        run.add(run.row("baseline (huge directory): " + loader, engine, n, m.baseline(), Double.NaN, "", "", null));
        run.add(run.judgedOnlyAgainstTheRealBaseline(run.row("cold scan, the huge directory's parent", engine, n,
                m.parent(), m.baseline().median(), "baseline (huge directory)", target, maxRatio)));
        run.add(run.judgedOnlyAgainstTheRealBaseline(run.row("cold scan, huge directory as root", engine, n,
                m.root(), m.baseline().median(), "baseline (huge directory)", target, maxRatio)));
        run.add(run.row("huge root ÷ its parent", engine, n, m.root(), m.parent().median(), "parent scan", "", null));
    }

    /**
     * Runs {@code runs} times: the baseline, then a cold scan of the parent and one of the directory itself, each
     * into an empty index, in turns. {@code reset} empties the index before each scan.
     */
    private Measured measure(String engine, Baseline baseline, Supplier<FsIndex> open, Step reset) throws Exception {
        Path dir = parent.resolve(DIRECTORY);
        Measured m = new Measured(new Series(), new Series(), new Series());
        for (int r = 0; r < run.runs; r++) {
            m.baseline.add(baseline.seconds(dir), HeapMonitor.Usage.NONE);
            // Alternating which goes first spreads whatever the machine does meanwhile over both.
            for (boolean rootNow : r % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                reset.run();
                try (FsIndex index = open.get()) {
                    ScanResult s = run.timedScan(index, rootNow ? dir : parent, rootNow ? m.root : m.parent,
                            engine + " cold scan of the huge directory" + (rootNow ? " as root" : "'s parent"));
                    run.expect(s.added() >= n, engine + " scan of " + (rootNow ? dir : parent) + " added "
                            + s.added() + " rows for " + n + " files");
                }
            }
            reset.run();
        }
        return m;
    }
}
