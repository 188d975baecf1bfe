package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;

/**
 * The cold scan, rescan and churn scenarios on SQLite: per run the baseline ({@code find | sqlite3 .import}), a cold
 * scan into an empty index, the same scan again, and the scan after {@link TreeGenerator#churn}; each against the
 * baseline of the same run.
 */
final class SqliteScans {
    private final BenchRun run;

    SqliteScans(BenchRun run) {
        this.run = run;
    }

    /** Runs the scenarios the run covers and returns the cold scans' series (the growth scenario's numerator). */
    Series measure(TreeGenerator generator, Path tree) throws Exception {
        long n = generator.entries();
        String engine = "SQLite";
        String baselineName = run.realSqliteBaseline() ? "find -printf into sqlite3 .import"
                : "JDBC inserts (no sqlite3)";
        if (!run.realSqliteBaseline()) {
            run.note("SQLite baseline: the sqlite3 or find command is missing, so the baseline is an NIO walk"
                    + " inserting through sqlite-jdbc, NOT the issue's find | sqlite3 .import; ratios are indicative.");
        }
        boolean cold = run.covers(Bench.Scenario.cold) || run.covers(Bench.Scenario.rescan)
                || run.covers(Bench.Scenario.churn) || run.covers(Bench.Scenario.growth);
        Series baseline = new Series();
        Series coldScan = new Series();
        Series rescan = new Series();
        Series churned = new Series();
        Path db = run.resolve("sqlite-index.db");
        for (int r = 0; r < run.runs && cold; r++) {
            String of = "SQLite run " + (r + 1) + "/" + run.runs + ": ";
            run.log(of + "baseline");
            baseline.add(run.sqliteBaseline(tree, n), HeapMonitor.Usage.NONE);
            Baselines.deleteSqlite(db);
            try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + db).build()) {
                run.log(of + "cold scan");
                ScanResult c = run.timedScan(index, tree, coldScan, "SQLite cold scan");
                run.expect(c.added() >= n, "SQLite cold scan added " + c.added() + " rows for " + n + " entries");
                if (run.covers(Bench.Scenario.rescan)) {
                    run.log(of + "rescan, nothing changed");
                    ScanResult u = run.timedScan(index, tree, rescan, "SQLite rescan");
                    run.expect(u.added() == 0 && u.deleted() == 0, "SQLite rescan of an unchanged tree added "
                            + u.added() + " and deleted " + u.deleted() + " rows");
                }
                if (run.covers(Bench.Scenario.churn)) {
                    TreeGenerator.Churn churn = generator.churn(tree, r);
                    run.log(of + "rescan after churn (" + churn + ")");
                    ScanResult ch = run.timedScan(index, tree, churned, "SQLite rescan after churn");
                    if (r == 0) {
                        run.note("Churn (run 1): " + churn + "; the rescan then added " + ch.added()
                                + ", updated " + ch.modified() + ", deleted " + ch.deleted() + " rows.");
                    }
                }
            }
            Baselines.deleteSqlite(db);
        }
        if (!baseline.isEmpty()) {
            run.add(run.row("baseline: " + baselineName, engine, n, baseline, Double.NaN, "", "", null));
        }
        double base = baseline.median();
        if (!coldScan.isEmpty()) {
            run.add(run.judgedOnlyAgainstTheRealBaseline(
                    run.row("cold scan (empty index)", engine, n, coldScan, base, "baseline", "≤ 2.5", 2.5)));
        }
        if (!rescan.isEmpty()) {
            run.add(run.judgedOnlyAgainstTheRealBaseline(
                    run.row("rescan, nothing changed", engine, n, rescan, base, "baseline", "≤ 1.5", 1.5)));
        }
        if (!churned.isEmpty()) {
            run.add(run.judgedOnlyAgainstTheRealBaseline(
                    run.row("rescan after churn", engine, n, churned, base, "baseline", "≤ 1.6", 1.6)));
        }
        return coldScan;
    }
}
