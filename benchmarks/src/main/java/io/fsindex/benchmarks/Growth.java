package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import java.nio.file.Path;

/**
 * The growth scenario on SQLite: the cold scan of a tree a tenth the size, of the same shape, and the ratio of the
 * full tree's cold scan to it (linear growth is 10).
 */
final class Growth {
    private final BenchRun run;

    Growth(BenchRun run) {
        this.run = run;
    }

    /** Generates the N/10 tree, times its baseline and cold scan, and compares {@code fullCold} with them. */
    void measure(TreeGenerator full, Series fullCold) throws Exception {
        long n = full.entries() / 10;
        TreeGenerator small = new TreeGenerator(full.shape().withEntries(n));
        Path tree = run.resolve("tree-tenth");
        run.generate(small, tree);
        Series baseline = new Series();
        Series cold = new Series();
        Path db = run.resolve("sqlite-growth.db");
        for (int r = 0; r < run.runs; r++) {
            run.log("SQLite growth run " + (r + 1) + "/" + run.runs + ": baseline and cold scan of " + n + " entries");
            baseline.add(run.sqliteBaseline(tree, n), HeapMonitor.Usage.NONE);
            Baselines.deleteSqlite(db);
            try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + db).build()) {
                run.timedScan(index, tree, cold, "SQLite cold scan of N/10");
            }
            Baselines.deleteSqlite(db);
        }
        run.add(run.row("baseline (N/10 tree)", "SQLite", n, baseline, Double.NaN, "", "", null));
        run.add(run.row("cold scan (N/10 tree)", "SQLite", n, cold, baseline.median(), "baseline (N/10)", "", null));
        double ratio = fullCold.median() / cold.median();
        run.add(new Report.Row("growth: cold scan N ÷ N/10", "SQLite", full.entries(), fullCold.median(), ratio,
                "cold scan (N/10)", "8–12", ratio >= 8 && ratio <= 12, HeapMonitor.Usage.NONE));
        Scratch.deleteTree(tree);
    }
}
