package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import io.fsindex.testservers.InnoDbServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The one-server ceiling: 1, 2, 4, 8 and 16 scanner processes (child JVMs running {@link ScaleChild}) cold-scan the
 * sixteen top-level directories of one tree, split evenly between them, into one empty index on one PostgreSQL or
 * MySQL server. The work is the same at every count; the table shows the aggregate rate, where the server's sessions
 * spent their time ({@link ServerWaits}), the scanners' retries and CPU, and how busy the whole machine was.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.ScaleBench --entries 320000
 * </pre>
 */
@Command(name = "scale-bench", mixinStandardHelpOptions = true,
        description = "Many scanner processes into one server: aggregate rate, lock waits, retries; one table.")
public final class ScaleBench extends BenchCommand {
    /** The engines a run can cover (lower case: they are the command line's values). */
    enum Engine { postgres, mysql, mariadb }

    /** Disjoint subtrees the tree has, so every process count up to this divides the work evenly. */
    static final int SUBTREES = 16;

    @Option(names = "--entries", defaultValue = "320000", paramLabel = "N", description = "entries in the tree")
    long entries;
    @Option(names = "--processes", split = ",", defaultValue = "1,2,4,8,16", paramLabel = "K",
            description = "scanner process counts to run (each at most " + SUBTREES + ")")
    List<Integer> processes;
    @Option(names = "--engines", split = ",", defaultValue = "postgres,mysql", paramLabel = "ENGINE",
            description = "engines to run: ${COMPLETION-CANDIDATES}")
    EnumSet<Engine> engines;
    @Option(names = "--pool", defaultValue = "2", paramLabel = "N",
            description = "each process's connection pool (a scan keeps one; heartbeats borrow one)")
    int pool;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the tree and databases")
    Path workDir;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED", description = "seed of the generated tree")
    long seed;

    /** Time between two samples of the server's sessions. */
    private static final long SAMPLE_MILLIS = 20;
    /** A guard against a wedged child hanging the run, not a speed limit. */
    private static final long CHILD_MINUTES = 20;

    public static void main(String[] args) {
        BenchCommand.main(new ScaleBench(), args);
    }

    @Override
    public Integer call() throws Exception {
        for (int k : processes) {
            if (k < 1 || k > SUBTREES) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--processes: " + k
                        + " is not between 1 and " + SUBTREES);
            }
        }
        Path run = Files.createTempDirectory(workDir == null ? Path.of(System.getProperty("java.io.tmpdir")) : workDir,
                "fsindex-scale-");
        try {
            Path root = Files.createDirectories(run.resolve("tree")).toRealPath();
            TreeGenerator generator = new TreeGenerator(new TreeGenerator.Shape(entries, 6, 50, 4, 6, 8, 24,
                    SUBTREES, seed));
            TreeGenerator.Stats stats = generator.generate(root, 2);
            List<Path> subtrees = generator.topLevelDirectories(root);
            long work = 0;
            for (Path subtree : subtrees) {
                try (Stream<Path> below = Files.walk(subtree)) {
                    work += below.count() - 1;        // what the scans of the subtrees add, below their roots
                }
            }
            progress.printf("generated %d entries, %d below %d subtrees, under %s%n", stats.entries(), work,
                    subtrees.size(), root);
            out.printf(Locale.ROOT, "%d entries below %d subtrees; %d CPU cores; load average at the start %s; each"
                    + " process: a pool of %d, -Xmx192m%n%n", work, subtrees.size(),
                    Runtime.getRuntime().availableProcessors(), loadAverage(), pool);
            out.println("| engine | processes | seconds | entries/s | × 1 process | feed-head wait (session-s)"
                    + " | other lock wait (session-s) | running in server (session-s) | open, in the scanner"
                    + " (session-s) | retries | scanners' CPU (s) | machine CPU busy | samples |");
            out.println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
            List<String> notes = new ArrayList<>();
            for (Engine engine : engines) {
                try (Server server = Server.start(engine, run)) {
                    double single = Double.NaN;
                    for (int k : processes) {
                        Round r = round(server, "p" + k + "_", k, subtrees, run);
                        if (r.added < work) {
                            throw new IllegalStateException(server.label + " with " + k + " processes added "
                                    + r.added + " entries of " + work);
                        }
                        double rate = work / r.seconds;
                        if (k == processes.get(0)) {
                            single = rate / k;
                        }
                        out.printf(Locale.ROOT, "| %s | %d | %.2f | %,.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %d"
                                        + " | %.1f | %.0f %% | %d |%n", server.label, k, r.seconds, rate, rate / single,
                                r.waits.feedHead(), r.waits.otherLocks(), r.waits.running(), r.waits.inClient(),
                                r.retries, r.cpu, 100 * r.machineBusy, r.waits.samples());
                        out.flush();
                        if (r.waits.otherLocks() > 0) {
                            notes.add(String.format(Locale.ROOT, "- %s, %d processes, longest other lock waits: %s",
                                    server.label, k, r.waits.longestOtherWaits(3)));
                        }
                    }
                }
            }
            out.println();
            notes.forEach(out::println);
            out.flush();
            return 0;
        } finally {
            deleteTree(run);
        }
    }

    /** What one process count measured. */
    private record Round(double seconds, long added, long retries, double cpu, ServerWaits.Totals waits,
                         double machineBusy) {
    }

    private Round round(Server server, String prefix, int k, List<Path> subtrees, Path run) throws Exception {
        progress.printf("%s: %d scanner process(es)%n", server.label, k);
        server.builder(prefix).build().close();              // the tables exist before the clock starts
        List<Process> children = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try {
            for (int i = 0; i < k; i++) {
                List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
                                "java").toString(), "-Xmx192m", "-XX:+UseSerialGC",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.jooq.no-logo=true",
                        "-Dorg.jooq.no-tips=true", "-cp", System.getProperty("java.class.path"),
                        ScaleChild.class.getName(), server.url, server.user, server.password, prefix,
                        Integer.toString(pool)));
                for (int j = i; j < subtrees.size(); j += k) {
                    command.add(subtrees.get(j).toString());
                }
                Process p = new ProcessBuilder(command)
                        .redirectError(run.resolve(prefix + i + ".log").toFile()).start();
                children.add(p);
                outputs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (int i = 0; i < k; i++) {
                expectLine(outputs.get(i), "ready", children.get(i), run.resolve(prefix + i + ".log"));
            }
            try (ServerWaits waits = new ServerWaits(server.connect(), server.postgres, prefix, SAMPLE_MILLIS)) {
                long[] cpu0 = machineCpu();
                long t0 = System.nanoTime();
                for (Process p : children) {
                    Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
                    w.write("go\n");
                    w.flush();
                }
                long added = 0;
                long retries = 0;
                double cpu = 0;
                for (int i = 0; i < k; i++) {
                    String[] done = expectLine(outputs.get(i), "done", children.get(i),
                            run.resolve(prefix + i + ".log")).split(" ");
                    added += Long.parseLong(done[1]);
                    retries += Long.parseLong(done[2]);
                    cpu += Double.parseDouble(done[4]);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                long[] cpu1 = machineCpu();
                ServerWaits.Totals totals = waits.stop();
                for (int i = 0; i < k; i++) {
                    if (!children.get(i).waitFor(CHILD_MINUTES, TimeUnit.MINUTES) || children.get(i).exitValue() != 0) {
                        throw new IllegalStateException("scanner " + i + " did not exit cleanly: "
                                + Files.readString(run.resolve(prefix + i + ".log")));
                    }
                }
                double busy = cpu1[1] == cpu0[1] ? Double.NaN
                        : (double) (cpu1[0] - cpu0[0]) / (cpu1[1] - cpu0[1]);
                return new Round(seconds, added, retries, cpu, totals, busy);
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
    }

    /** Reads lines until one starting with {@code word}; fails with the child's log if it ends first. */
    private static String expectLine(BufferedReader in, String word, Process p, Path log) throws IOException {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith(word)) {
                return line;
            }
        }
        throw new IllegalStateException("a scanner process ended (exit " + (p.isAlive() ? "?" : p.exitValue())
                + ") before saying " + word + ": " + Files.readString(log));
    }

    /** Busy and total jiffies of all CPUs since boot ({@code /proc/stat}); zeros where there is none. */
    private static long[] machineCpu() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** One engine's server for the run, started fresh and closed at the end. */
    private static final class Server implements AutoCloseable {
        final String label;
        final boolean postgres;
        final String url;
        final String user;
        final String password;
        private final AutoCloseable owned;

        private Server(String label, boolean postgres, String url, String user, String password,
                       AutoCloseable owned) {
            this.label = label;
            this.postgres = postgres;
            this.url = url;
            this.user = user == null ? "" : user;
            this.password = password == null ? "" : password;
            this.owned = owned;
        }

        static Server start(Engine engine, Path run) throws Exception {
            if (engine == Engine.postgres) {
                PostgresServer pg = PostgresServer.startEmbedded(run.resolve("pg-data"));
                return new Server("PostgreSQL", true, pg.url(), pg.user(), pg.password(), pg);
            }
            InnoDbServer.Engine kind = engine == Engine.mysql ? InnoDbServer.Engine.MYSQL
                    : InnoDbServer.Engine.MARIADB;
            MySqlServer my = MySqlServer.start(kind, run.resolve(kind.scheme));
            try (Connection c = my.connect(my.url()); java.sql.Statement s = c.createStatement()) {
                // sixteen JVMs connecting at once on a busy machine take longer than the 10 s handshake default
                s.execute("SET GLOBAL connect_timeout = 120");
            }
            return new Server(kind.label.split(" ")[0], false, my.loadDataUrl(), my.user(), null, my);
        }

        FsIndex.Builder builder(String prefix) {
            FsIndex.Builder b = FsIndex.builder().jdbcUrl(url).tablePrefix(prefix);
            return user.isEmpty() ? b : b.user(user).password(password.isEmpty() ? null : password);
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public void close() throws Exception {
            owned.close();
        }
    }
}
