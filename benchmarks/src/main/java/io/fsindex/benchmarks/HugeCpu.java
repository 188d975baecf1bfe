package io.fsindex.benchmarks;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.testservers.InnoDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Where a huge directory's cold scan spends its CPU, against a tree of as many entries and the engine's baseline of
 * each: per engine and run, the baseline of the huge directory and of the tree, a cold scan of the tree and one of
 * the huge directory as the root (in alternating order), each with its wall time and CPU time split into the scan
 * thread, the walker thread, the JIT compilers, the garbage collector and the rest of this JVM, the processes it ran
 * (the baseline's {@code find} and {@code sqlite3}) and the database server. CPU time is what the code costs; on a
 * shared machine the wall time is mostly the wait for a CPU.
 * <pre>
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.HugeCpu --entries 200000 --runs 2
 * </pre>
 * {@code --jfr DIR} records each scan with JFR's {@code profile} settings into DIR (read with {@link JfrTopFrames}).
 * {@code --drop-indexes} asks what the scan would cost without some of the SQLite files table's indexes,
 * {@code --part-entries} what it would cost with a huge directory applied in larger or smaller parts.
 */
@Command(name = "huge-cpu", mixinStandardHelpOptions = true, sortOptions = false,
        description = "CPU time of a huge directory's cold scan against a tree of as many entries and the baselines.")
public final class HugeCpu extends BenchCommand {
    private static final String PREFIX = ServerScans.PREFIX;

    @Option(names = "--entries", defaultValue = "200000", paramLabel = "N",
            description = "files in the huge directory and entries in the tree (default ${DEFAULT-VALUE})")
    long entries;
    @Option(names = "--engines", split = ",", paramLabel = "ENGINE", defaultValue = "sqlite,postgres",
            description = "engines: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    EnumSet<Bench.Engine> engines;
    @Option(names = "--runs", defaultValue = "2", paramLabel = "N", description = "runs (default ${DEFAULT-VALUE})")
    int runs;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where the trees and databases go")
    Path workDir;
    @Option(names = "--jfr", paramLabel = "DIR", description = "record each scan with JFR into DIR")
    Path jfr;
    @Option(names = "--sqlite-params", paramLabel = "QUERY",
            description = "appended to the SQLite index's URL after a '?' (e.g. cache_size=-65536)")
    String sqliteParams;
    @Option(names = "--only", paramLabel = "KIND", description = "scan only this: tree or huge (default both)")
    String only;
    @Option(names = "--drop-indexes", split = ",", paramLabel = "NAME",
            description = "SQLite only, a what-if: the cold scans run without these indexes of the files table"
                    + " (e.g. fsindex_files_tree,fsindex_files_file_key), dropped once the index is opened")
    List<String> dropIndexes = List.of();
    @Option(names = "--part-entries", paramLabel = "N",
            description = "a what-if: scans list and apply a huge directory in parts of N entries (not the default)")
    Integer partEntries;

    public static void main(String[] args) {
        BenchCommand.main(new HugeCpu(), args);
    }

    /** The engine's bulk load of a directory's {@code find} listing into a plain table. */
    private interface Loader {
        Baselines.Load load(Path dir) throws Exception;
    }

    /** One engine's baseline, index and table reset. */
    private record Engine(String name, Loader baseline, Supplier<FsIndex> open, HugeRoot.Step reset) {
    }

    private final List<String> lines = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        if (!dropIndexes.isEmpty() && !engines.equals(EnumSet.of(Bench.Engine.sqlite))) {
            throw new IllegalArgumentException("--drop-indexes is for --engines sqlite only");
        }
        if (partEntries != null && partEntries < 1) {
            throw new IllegalArgumentException("--part-entries must be at least 1");
        }
        TreeGenerator.Shape shape = TreeGenerator.Shape.of(entries, 42);
        try (Scratch scratch = Scratch.create(workDir, "fsindex-hugecpu-", false); CpuClock clock = new CpuClock()) {
            Path huge = scratch.resolve("hugeroot").resolve(HugeRoot.DIRECTORY);
            Path tree = scratch.resolve("tree");
            progress.println("generating " + entries + " files in " + huge + " and a tree of as many entries");
            TreeGenerator.generateFlat(huge, entries, shape);
            if (!"huge".equals(only)) {
                new TreeGenerator(shape).generate(tree, 2);
                tree = tree.toRealPath();
                Baselines.walkOnly(tree);
            }
            huge = huge.toRealPath();
            Baselines.walkOnly(huge);
            lines.add("| step | engine | run | load | wall s | total CPU s | JVM | scan thread | walker | JIT | GC |"
                    + " other | children | server |");
            lines.add("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
            for (Bench.Engine e : engines) {
                switch (e) {
                    case sqlite -> {
                        Path db = scratch.resolve("index.db");
                        Path baselineDb = scratch.resolve("baseline.db");
                        measure(clock, new Engine("SQLite", dir -> Baselines.findIntoSqlite3(dir, baselineDb),
                                () -> openSqlite(db),
                                () -> Baselines.deleteSqlite(db)), huge, tree);
                    }
                    case postgres -> {
                        try (PostgresServer server = PostgresServer.startEmbedded(scratch.resolve("pg-data"))) {
                            long postmaster;
                            try (Connection c = server.connect(); Statement s = c.createStatement();
                                 ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                                rs.next();
                                postmaster = CpuClock.parentOf(rs.getLong(1));
                            }
                            clock.server(() -> CpuClock.postgresTicks(postmaster));
                            measure(clock, new Engine("PostgreSQL", dir -> {
                                try (Connection c = server.connect()) {
                                    return Baselines.findIntoPostgresCopy(dir, c);
                                }
                            }, () -> FsIndex.builder().jdbcUrl(server.url()).user(server.user())
                                    .password(server.password()).tablePrefix(PREFIX).build(),
                                    () -> ServerScans.drop(server.connect(), " CASCADE")), huge, tree);
                            clock.server(null);
                        }
                    }
                    case mysql, mariadb -> {
                        InnoDbServer.Engine kind = e == Bench.Engine.mysql ? InnoDbServer.Engine.MYSQL
                                : InnoDbServer.Engine.MARIADB;
                        try (MySqlServer server = MySqlServer.start(kind, scratch.resolve(kind.scheme))) {
                            long pid;
                            try (Connection c = server.connect(server.url()); Statement s = c.createStatement();
                                 ResultSet rs = s.executeQuery("SELECT @@pid_file")) {
                                rs.next();
                                pid = Long.parseLong(Files.readString(Path.of(rs.getString(1))).strip());
                            }
                            clock.server(() -> CpuClock.processTicks(pid));
                            measure(clock, new Engine(kind.label.split(" ")[0], dir -> {
                                try (Connection c = server.connect(server.loadDataUrl())) {
                                    return Baselines.findIntoLoadData(dir, c, scratch.resolve("load.tsv"));
                                }
                            }, () -> FsIndex.builder().jdbcUrl(server.loadDataUrl()).user(server.user())
                                    .tablePrefix(PREFIX).build(),
                                    () -> ServerScans.drop(server.connect(server.url()), "")), huge, tree);
                            clock.server(null);
                        }
                    }
                }
            }
        }
        lines.forEach(out::println);
        out.flush();
        return 0;
    }

    private void measure(CpuClock clock, Engine e, Path huge, Path tree) throws Exception {
        for (int r = 1; r <= runs; r++) {
            step(clock, e, r, "baseline, huge directory", () -> e.baseline().load(huge));
            if (!"huge".equals(only)) {
                step(clock, e, r, "baseline, tree", () -> e.baseline().load(tree));
            }
            boolean hugeFirst = r % 2 == 0;
            for (boolean hugeNow : new boolean[] {hugeFirst, !hugeFirst}) {
                if (only != null && !only.equals(hugeNow ? "huge" : "tree")) {
                    continue;
                }
                Path root = hugeNow ? huge : tree;
                String what = hugeNow ? "cold scan, huge directory as root" : "cold scan, tree";
                e.reset().run();
                try (FsIndex index = e.open().get()) {
                    if (partEntries != null) {
                        IndexInternals.of(index).listingPartEntries(partEntries);
                    }
                    Recording rec = null;
                    if (jfr != null) {
                        Files.createDirectories(jfr);
                        rec = new Recording(Configuration.getConfiguration("profile"));
                        rec.start();
                    }
                    step(clock, e, r, what, () -> {
                        ScanResult s = index.scan(root);
                        if (s.added() < entries) {
                            throw new IllegalStateException(what + " added " + s.added());
                        }
                        return null;
                    });
                    if (rec != null) {
                        rec.stop();
                        rec.dump(jfr.resolve(e.name() + "-" + (hugeNow ? "huge" : "tree") + "-" + r + ".jfr"));
                        rec.close();
                    }
                }
                e.reset().run();
            }
        }
    }

    /** Opens the SQLite index at {@code db}, then drops {@link #dropIndexes} from it. */
    private FsIndex openSqlite(Path db) {
        FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + db
                + (sqliteParams == null ? "" : "?" + sqliteParams)).build();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            for (String name : dropIndexes) {
                s.execute("DROP INDEX \"" + name + "\"");
            }
        } catch (SQLException e) {
            index.close();
            throw new IllegalStateException("cannot drop " + dropIndexes + ": " + e.getMessage(), e);
        }
        return index;
    }

    private interface Work {
        Object run() throws Exception;
    }

    private void step(CpuClock clock, Engine e, int run, String what, Work work) throws Exception {
        System.gc();
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        CpuClock.Reading before = clock.read();
        work.run();
        long end = System.nanoTime();
        // A server process that served the step on a connection closed by it (a baseline's) is counted once its
        // parent has reaped it.
        Thread.sleep(500);
        CpuClock.Reading d = clock.read().minus(before);
        double wall = (end - before.wallNanos()) / 1e9;
        double total = d.jvm() + d.children() + d.server();
        String line = String.format(Locale.ROOT,
                "| %s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |",
                what, e.name(), run, load, wall, total, d.jvm(), d.thread(CpuClock.Kind.scan),
                d.thread(CpuClock.Kind.walk), d.thread(CpuClock.Kind.jit), d.thread(CpuClock.Kind.gc),
                d.thread(CpuClock.Kind.other), d.children(), d.server());
        lines.add(line);
        progress.println(line);
        progress.flush();
    }
}
