package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.function.BiConsumer;
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

    /** A timed scan of {@code root} into {@code index}, added to {@code into}. */
    interface TimedScan {
        ScanResult scan(FsIndex index, Path root, Bench.Series into, String what);
    }

    /** Seconds of each kind of run, medians taken by the caller's report. */
    record Measured(Bench.Series baseline, Bench.Series parent, Bench.Series root) {
    }

    private HugeRoot() {
    }

    /**
     * Runs {@code runs} times: the baseline, then a cold scan of the parent and one of the directory itself, each
     * into an empty index, in turns. {@code reset} empties the index before each scan.
     */
    static Measured measure(String engine, Path parent, long n, int runs, Baseline baseline, Supplier<FsIndex> open,
                            Step reset, TimedScan timed, BiConsumer<Boolean, String> expect)
            throws Exception {
        Path dir = parent.resolve(DIRECTORY);
        Measured m = new Measured(new Bench.Series(), new Bench.Series(), new Bench.Series());
        for (int r = 0; r < runs; r++) {
            m.baseline.add(baseline.seconds(dir), HeapMonitor.Usage.NONE);
            // Alternating which goes first spreads whatever the machine does meanwhile over both.
            for (boolean rootNow : r % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                reset.run();
                try (FsIndex index = open.get()) {
                    ScanResult s = timed.scan(index, rootNow ? dir : parent, rootNow ? m.root : m.parent,
                            engine + " cold scan of the huge directory" + (rootNow ? " as root" : "'s parent"));
                    expect.accept(s.added() >= n, engine + " scan of " + (rootNow ? dir : parent) + " added "
                            + s.added() + " rows for " + n + " files");
                }
            }
            reset.run();
        }
        return m;
    }
}
