package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The flat scenario on SQLite: a cold scan of one directory holding N files, which must complete within the memory
 * target's heap ({@code -Xmx256m}) without the heap growing with N; timed against the baseline of the same directory.
 */
final class FlatDirectory {
    /** The heap the memory target allows. */
    static final long MEMORY_TARGET_BYTES = 256L * 1024 * 1024;

    private final BenchRun run;

    FlatDirectory(BenchRun run) {
        this.run = run;
    }

    /** Generates the directory, runs the baseline and the cold scan each run (until one fails), deletes it. */
    void measure(TreeGenerator.Shape shape) throws Exception {
        long n = shape.entries();
        Path dir = run.resolve("flat");
        run.log(String.format(Locale.ROOT, "generating one directory of %,d files in %s", n, dir));
        long generationStart = System.nanoTime();
        TreeGenerator.generateFlat(dir, n, shape);
        run.log(String.format(Locale.ROOT, "generated in %.1f s", BenchRun.secondsSince(generationStart)));
        Series baseline = new Series();
        Series cold = new Series();
        Path db = run.resolve("sqlite-flat.db");
        String failure = null;
        HeapMonitor.Usage failedHeap = HeapMonitor.Usage.NONE;
        for (int r = 0; r < run.runs && failure == null; r++) {
            run.log("SQLite flat run " + (r + 1) + "/" + run.runs + ": baseline and cold scan");
            baseline.add(run.sqliteBaseline(dir, n), HeapMonitor.Usage.NONE);
            Baselines.deleteSqlite(db);
            try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + db).build()) {
                run.heapBegin();
                long t0 = System.nanoTime();
                try {
                    index.scan(dir);
                    cold.add(BenchRun.secondsSince(t0), run.heapEnd());
                } catch (RuntimeException | OutOfMemoryError e) {
                    double seconds = BenchRun.secondsSince(t0);
                    failedHeap = run.heapEnd();
                    failure = String.format(Locale.ROOT, "%s after %.1f s", BenchRun.rootCause(e), seconds);
                    run.log("SQLite cold scan of one flat directory failed: " + failure);
                }
            }
            Baselines.deleteSqlite(db);
        }
        boolean bounded = Runtime.getRuntime().maxMemory() <= MEMORY_TARGET_BYTES + MEMORY_TARGET_BYTES / 16;
        run.add(run.row("baseline (one directory)", "SQLite", n, baseline, Double.NaN, "", "", null));
        if (failure != null) {
            run.add(new Report.Row("cold scan, one directory: FAILED", "SQLite", n, Double.NaN, Double.NaN,
                    "", "completes in -Xmx256m", false, failedHeap));
            run.note("The cold scan of one directory of " + n + " files failed: " + failure);
        } else {
            Report.Row r = run.row("cold scan, one directory", "SQLite", n, cold, baseline.median(),
                    "baseline (one directory)", "completes in -Xmx256m", null);
            run.add(new Report.Row(r.scenario(), r.engine(), r.entries(), r.seconds(), r.ratio(), r.relativeTo(),
                    r.target(), bounded ? Boolean.TRUE : null, r.heap()));
        }
        if (!bounded) {
            run.note("This JVM's heap limit is " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                    + " MiB, not 256 MiB: run with -Xmx256m to judge the memory target.");
        }
        Scratch.deleteTree(dir);
    }
}
