package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import io.fsindex.testservers.InnoDbServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark command: parses the options, generates the trees under a scratch directory, runs each selected
 * scenario ({@link SqliteScans}, {@link Growth}, {@link HugeRoot}, {@link ScopeBench}, {@link ServerScans}, {@link
 * FlatDirectory}) right after its baseline in this process, and prints one table (Markdown, {@link Report}) with
 * seconds, entries per second, the ratio to the baseline, the target for that ratio, and the heap used. Ratios are
 * what matter: absolute times drift with the machine.
 * <pre>
 * mvn -B -q package -DskipTests -Pserver-binaries
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.Bench --entries 1000000
 * </pre>
 * {@code --smoke} is the quick run CI makes (2,000 entries, SQLite only). See {@code docs/benchmarks.md}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Benchmarks fsindex scans against bulk-load baselines and prints one table of ratios.")
public final class Bench implements Callable<Integer> {
    /** The engines a run can cover (lower case: they are the command line's values). */
    enum Engine { sqlite, postgres, mysql, mariadb }

    /** The scenarios a run can cover (docs/benchmarks.md says what each measures); lower case like Engine. */
    enum Scenario { walk, cold, rescan, churn, growth, flat, concurrent, hugeroot, scope, modes }

    private static final String SMOKE_ENTRIES = "2000";

    @Option(names = "--entries", paramLabel = "N", description = "entries in the main tree (default 1,000,000; "
            + SMOKE_ENTRIES + " with --smoke); the growth tree has N/10, the flat and huge-root directories N files")
    Long entries;
    @Option(names = "--smoke", description = "a quick run for CI: " + SMOKE_ENTRIES + " entries, SQLite only;"
            + " falls back to a JDBC baseline if the sqlite3 or find command is missing")
    boolean smoke;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the run's directory of trees"
            + " and databases (default: the system temporary directory); never the repository")
    Path workDir;
    @Option(names = "--keep", description = "keep the generated trees and databases instead of deleting them")
    boolean keep;
    @Option(names = "--engines", split = ",", paramLabel = "ENGINE",
            description = "engines to run: ${COMPLETION-CANDIDATES} (default sqlite,postgres; sqlite with --smoke)")
    EnumSet<Engine> engines;
    @Option(names = "--scenarios", split = ",", paramLabel = "SCENARIO",
            description = "scenarios to run: ${COMPLETION-CANDIDATES} (default all; rescan and churn run a cold scan"
                    + " first)")
    EnumSet<Scenario> scenarios = EnumSet.allOf(Scenario.class);
    @Option(names = "--runs", defaultValue = "1", paramLabel = "N",
            description = "runs per scenario; the table shows medians (default ${DEFAULT-VALUE})")
    int runs;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED",
            description = "seed of the generated trees and churn (default ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--min-files", defaultValue = "6", paramLabel = "N",
            description = "fewest files per directory (default ${DEFAULT-VALUE})")
    int minFiles;
    @Option(names = "--max-files", defaultValue = "50", paramLabel = "N",
            description = "most files per directory (default ${DEFAULT-VALUE})")
    int maxFiles;
    @Option(names = "--min-depth", defaultValue = "4", paramLabel = "N",
            description = "fewest levels down to a leaf directory (default ${DEFAULT-VALUE})")
    int minDepth;
    @Option(names = "--max-depth", defaultValue = "6", paramLabel = "N",
            description = "most levels down to a leaf directory (default ${DEFAULT-VALUE})")
    int maxDepth;
    @Option(names = "--min-name", defaultValue = "8", paramLabel = "N",
            description = "shortest name (default ${DEFAULT-VALUE})")
    int minName;
    @Option(names = "--max-name", defaultValue = "24", paramLabel = "N",
            description = "longest name (default ${DEFAULT-VALUE})")
    int maxName;
    @Option(names = "--postgres-url", paramLabel = "URL", description = "use this PostgreSQL server instead of an"
            + " embedded one (the benchmark creates and drops database " + PostgresServer.DATABASE + " there)")
    String postgresUrl;
    @Option(names = "--postgres-user", paramLabel = "USER")
    String postgresUser;
    @Option(names = "--postgres-password", paramLabel = "PASSWORD")
    String postgresPassword;

    private PrintWriter out;
    private PrintWriter err;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line: 0 when every scenario ran (targets met or not), 1 on a failure, 2 on a usage error. */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        // Embedded PostgreSQL logs through slf4j-simple; only its warnings belong beside the benchmark's output.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
        Bench bench = new Bench();
        bench.out = out;
        bench.err = err;
        CommandLine cli = new CommandLine(bench);
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            err.println("bench: " + e);
            e.printStackTrace(err);
            return 1;
        });
        return cli.execute(args);
    }

    /** The table goes to standard output, progress to standard error. */
    @Override
    public Integer call() throws Exception {
        long startNanos = System.nanoTime();
        long n = entries != null ? entries : smoke ? Long.parseLong(SMOKE_ENTRIES) : 1_000_000L;
        Set<Engine> selected = engines != null ? engines
                : smoke ? EnumSet.of(Engine.sqlite) : EnumSet.of(Engine.sqlite, Engine.postgres);
        if (runs < 1 || n < 100) {
            throw new CommandLine.ParameterException(new CommandLine(this), "need --runs >= 1 and --entries >= 100");
        }
        boolean realSqliteBaseline = Baselines.available("find") && Baselines.available("sqlite3");
        if (!realSqliteBaseline && !smoke) {
            err.println("bench: the baseline needs the find and sqlite3 commands (e.g. apt-get install sqlite3);"
                    + " only --smoke falls back to a JDBC baseline without them");
            return 1;
        }
        TreeGenerator.Shape shape = new TreeGenerator.Shape(n, minFiles, maxFiles, minDepth, maxDepth, minName,
                maxName, 4, seed);
        Report report = new Report();
        List<String> machine = new ArrayList<>();
        Scratch scratch = Scratch.create(workDir, "fsindex-bench-", keep);
        describeMachine(machine, scratch.dir(), realSqliteBaseline);
        try (HeapMonitor heap = new HeapMonitor()) {
            BenchRun run = new BenchRun(runs, scenarios, scratch, heap, report, machine, err, startNanos,
                    realSqliteBaseline);
            scenarios(run, selected, shape);
        } finally {
            if (keep) {
                err.println("kept " + scratch.dir());
            } else {
                err.printf(Locale.ROOT, "[%7.1f s] deleting %s%n", BenchRun.secondsSince(startNanos), scratch.dir());
            }
            scratch.close();
        }
        out.println("## fsindex benchmark, " + String.format(Locale.ROOT, "%,d", n) + " entries");
        out.println();
        machine.forEach(m -> out.println("- " + m));
        out.println();
        report.print(out);
        return 0;
    }

    /** Runs the selected scenarios on the selected engines, in the order the report lists them. */
    private void scenarios(BenchRun run, Set<Engine> selected, TreeGenerator.Shape shape) throws Exception {
        long n = shape.entries();
        TreeGenerator main = new TreeGenerator(shape);
        Path tree = run.resolve("tree");
        if (needsMainTree(run)) {
            run.generate(main, tree);
        }
        HugeRoot hugeRoot = null;
        Path hugeParent = run.resolve("hugeroot");
        if (run.covers(Scenario.hugeroot)) {
            run.log(String.format(Locale.ROOT, "generating one directory of %,d files in %s", n,
                    hugeParent.resolve(HugeRoot.DIRECTORY)));
            long t0 = System.nanoTime();
            TreeGenerator.generateFlat(hugeParent.resolve(HugeRoot.DIRECTORY), n, shape);
            run.log(String.format(Locale.ROOT, "generated in %.1f s", BenchRun.secondsSince(t0)));
            hugeRoot = new HugeRoot(run, hugeParent, n);
        }
        if (run.covers(Scenario.walk) && run.realSqliteBaseline()) {
            Baselines.walkOnly(tree); // warms the dentry and inode caches for whatever runs first
            List<Double> walks = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                walks.add(Baselines.walkOnly(tree));
            }
            run.add(new Report.Row("walk only: find -printf > /dev/null", "-", n, BenchRun.median(walks), Double.NaN,
                    "", "", null, HeapMonitor.Usage.NONE));
        }
        if (selected.contains(Engine.sqlite)) {
            Series cold = new SqliteScans(run).measure(main, tree);
            if (run.covers(Scenario.growth)) {
                new Growth(run).measure(main, cold);
            }
            if (hugeRoot != null) {
                Path hugeDb = run.resolve("sqlite-hugeroot.db");
                hugeRoot.measure("SQLite", run.realSqliteBaseline() ? "find into sqlite3 .import" : "JDBC inserts",
                        "≤ 2.5", 2.5, dir -> run.sqliteBaseline(dir, n),
                        () -> FsIndex.builder().jdbcUrl("jdbc:sqlite:" + hugeDb).build(),
                        () -> Baselines.deleteSqlite(hugeDb));
            }
            if (run.covers(Scenario.scope)) {
                Path scopeDb = run.resolve("sqlite-scope.db");
                new ScopeBench(run).measure(tree, n, "SQLite",
                        () -> FsIndex.builder().jdbcUrl("jdbc:sqlite:" + scopeDb).build(),
                        () -> Baselines.deleteSqlite(scopeDb));
            }
        }
        ServerScans servers = new ServerScans(run, hugeRoot);
        if (selected.contains(Engine.postgres)) {
            servers.postgres(main, tree, postgresUrl, postgresUser, postgresPassword);
        }
        if (selected.contains(Engine.mysql)) {
            servers.innoDb(InnoDbServer.Engine.MYSQL, main, tree);
        }
        if (selected.contains(Engine.mariadb)) {
            servers.innoDb(InnoDbServer.Engine.MARIADB, main, tree);
        }
        if (hugeRoot != null) {
            Scratch.deleteTree(hugeParent);
        }
        if (selected.contains(Engine.sqlite) && run.covers(Scenario.flat)) {
            new FlatDirectory(run).measure(shape); // last: it is the scenario most likely to run out of heap
        }
    }

    /** True if a scenario the run covers scans the main tree (all but flat and hugeroot do). */
    static boolean needsMainTree(BenchRun run) {
        return EnumSet.of(Scenario.walk, Scenario.cold, Scenario.rescan, Scenario.churn, Scenario.growth,
                Scenario.concurrent, Scenario.scope, Scenario.modes).stream().anyMatch(run::covers);
    }

    private void describeMachine(List<String> machine, Path dir, boolean realSqliteBaseline) throws IOException {
        var os = ManagementFactory.getOperatingSystemMXBean();
        long memory = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getTotalMemorySize() : -1;
        machine.add("date: " + ZonedDateTime.now()
                .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME.withLocale(Locale.ROOT))
                .replaceFirst("\\.\\d+", ""));
        machine.add("machine: " + os.getAvailableProcessors() + " CPUs, "
                + (memory > 0 ? memory / (1024 * 1024) + " MiB memory, " : "") + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        machine.add("java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB, "
                + ManagementFactory.getGarbageCollectorMXBeans().get(0).getName().replaceFirst(" .*", "") + " GC");
        machine.add("work directory: " + dir + " (" + Files.getFileStore(dir).type() + ")");
        machine.add("sqlite3: " + (realSqliteBaseline ? Baselines.firstLine("sqlite3", "--version").split(" ")[0]
                : "missing") + "; find: " + (realSqliteBaseline
                ? Baselines.firstLine("find", "--version").replaceFirst("^find \\(GNU findutils\\) ", "GNU ")
                : "-"));
        machine.add("options: --entries " + (entries != null ? entries : smoke ? SMOKE_ENTRIES : "1000000")
                + (smoke ? " --smoke" : "") + " --runs " + runs + " --seed " + seed + " --files " + minFiles + "-"
                + maxFiles + " --depth " + minDepth + "-" + maxDepth + " --names " + minName + "-" + maxName);
    }
}
