package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What every scenario of one {@link Bench} run shares: the runs and scenarios asked for, the scratch directory, the
 * heap monitor, the report the rows go to, and the progress log; with the timing and row-making helpers.
 */
final class BenchRun {
    final int runs;
    private final Set<Bench.Scenario> scenarios;
    private final Scratch scratch;
    private final HeapMonitor heap;
    private final Report report;
    private final List<String> machine;
    private final PrintWriter err;
    private final long startNanos;
    private final boolean realSqliteBaseline;

    BenchRun(int runs, Set<Bench.Scenario> scenarios, Scratch scratch, HeapMonitor heap, Report report,
             List<String> machine, PrintWriter err, long startNanos, boolean realSqliteBaseline) {
        this.runs = runs;
        this.scenarios = scenarios;
        this.scratch = scratch;
        this.heap = heap;
        this.report = report;
        this.machine = machine;
        this.err = err;
        this.startNanos = startNanos;
        this.realSqliteBaseline = realSqliteBaseline;
    }

    /** True if the run covers {@code s}. */
    boolean covers(Bench.Scenario s) {
        return scenarios.contains(s);
    }

    /** A path in the run's scratch directory. */
    Path resolve(String name) {
        return scratch.resolve(name);
    }

    /** True if the SQLite baseline is the issue's {@code find | sqlite3}, not the JDBC stand-in. */
    boolean realSqliteBaseline() {
        return realSqliteBaseline;
    }

    void add(Report.Row row) {
        report.add(row);
    }

    void note(String note) {
        report.note(note);
    }

    /** Adds a line to the description of the machine and servers printed above the table. */
    void describe(String line) {
        machine.add(line);
    }

    /** Starts measuring the heap for one timed step; {@link #heapEnd} says what it used. */
    void heapBegin() {
        heap.begin();
    }

    HeapMonitor.Usage heapEnd() {
        return heap.end();
    }

    /** Generates {@code generator}'s tree at {@code tree}, logging how long it took. */
    void generate(TreeGenerator generator, Path tree) throws IOException {
        log(String.format(Locale.ROOT, "generating %,d entries (%,d directories, %,d files, seed %d) in %s",
                generator.entries(), generator.directories(), generator.files(), generator.shape().seed(), tree));
        long t0 = System.nanoTime();
        TreeGenerator.Stats stats = generator.generate(tree, Runtime.getRuntime().availableProcessors());
        log(String.format(Locale.ROOT, "generated %,d entries in %.1f s", stats.entries(), secondsSince(t0)));
    }

    /** Scans {@code root} into {@code index}, adding the seconds and heap to {@code into}. */
    ScanResult timedScan(FsIndex index, Path root, Series into, String what) {
        heap.begin();
        long t0 = System.nanoTime();
        ScanResult r = index.scan(root);
        double seconds = secondsSince(t0);
        into.add(seconds, heap.end());
        log(String.format(Locale.ROOT, "%s: %.2f s (added %d, updated %d, unchanged %d, deleted %d)", what, seconds,
                r.added(), r.modified(), r.unchanged(), r.deleted()));
        if (!r.isClean()) {
            report.note(what + ": " + r.errors().size() + " errors, the first: " + r.errors().get(0));
        }
        return r;
    }

    /** The SQLite baseline of {@code tree}, in seconds: {@code find | sqlite3 .import}, or the JDBC stand-in. */
    double sqliteBaseline(Path tree, long entries) throws Exception {
        Path db = scratch.resolve("baseline.db");
        Baselines.Load load = realSqliteBaseline ? Baselines.findIntoSqlite3(tree, db)
                : Baselines.jdbcIntoSqlite(tree, db);
        // Within 1 %: each run's churn adds and deletes files, so later runs see a few more or fewer than generated.
        expect(Math.abs(load.rows() - (entries + 1)) <= entries / 100, "the SQLite baseline loaded " + load.rows()
                + " rows for " + entries + " entries and the root");
        return load.seconds();
    }

    /** A target is only judged against the issue's own baseline, never against the JDBC stand-in. */
    Report.Row judgedOnlyAgainstTheRealBaseline(Report.Row r) {
        return realSqliteBaseline ? r : new Report.Row(r.scenario(), r.engine(), r.entries(), r.seconds(), r.ratio(),
                r.relativeTo(), r.target(), null, r.heap());
    }

    /** A row whose target is met when the median's ratio to {@code reference} is at most {@code maxRatio}. */
    Report.Row row(String scenario, String engine, long n, Series s, double reference, String relativeTo,
                   String target, double maxRatio) {
        double ratio = s.median() / reference;
        return new Report.Row(scenario, engine, n, s.median(), ratio, relativeTo, target, ratio <= maxRatio,
                s.heap());
    }

    /** A row judged as {@code met} says (null: not judged); no ratio if {@code reference} is NaN. */
    Report.Row row(String scenario, String engine, long n, Series s, double reference, String relativeTo,
                   String target, Boolean met) {
        return new Report.Row(scenario, engine, n, s.median(), Double.isNaN(reference) ? Double.NaN
                : s.median() / reference, relativeTo, target, met, s.heap());
    }

    /** Notes (and logs) what did not hold, without stopping the run. */
    void expect(boolean condition, String otherwise) {
        if (!condition) {
            report.note("Unexpected: " + otherwise + ".");
            log("unexpected: " + otherwise);
        }
    }

    void log(String message) {
        err.printf(Locale.ROOT, "[%7.1f s] %s%n", secondsSince(startNanos), message);
        err.flush();
    }

    static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** The medians of a list of seconds. */
    static double median(List<Double> values) {
        return Series.median(new ArrayList<>(values));
    }
}
