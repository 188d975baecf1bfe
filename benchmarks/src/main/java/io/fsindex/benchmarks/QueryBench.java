package io.fsindex.benchmarks;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import io.fsindex.testservers.InnoDbServer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Asks an index what the usual tools answer from the disk or their own database, in the same run and on the same
 * tree: a substring search against {@code plocate}, {@code du} of the whole tree against {@code du -s
 * --apparent-size}, a size and time range under a directory against {@code find -size -newer}, and lookups of
 * paths, one call each, against reading the same files' attributes in the JVM; and the cold
 * scan with the name search index on against one without, and one without the tree index (dropped) against one
 * with it. One table, ratios against each baseline.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.QueryBench --entries 1000000
 * </pre>
 */
@Command(name = "query-bench", mixinStandardHelpOptions = true,
        description = "Times find and du on an index against plocate, du and find on the same tree; one table.")
public final class QueryBench extends BenchCommand {
    /** The engines a run can cover (lower case: they are the command line's values). */
    enum Engine { sqlite, postgres, mysql, mariadb }

    @Option(names = "--entries", defaultValue = "100000", paramLabel = "N", description = "entries in the tree")
    long entries;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the tree and databases")
    Path workDir;
    @Option(names = "--pattern", defaultValue = "q7x", paramLabel = "TEXT",
            description = "text to search names for (3 characters match about 0.03 %% of generated names)")
    String pattern;
    @Option(names = "--engines", split = ",", defaultValue = "sqlite,postgres", paramLabel = "ENGINE",
            description = "engines to run: ${COMPLETION-CANDIDATES}")
    EnumSet<Engine> engines;
    @Option(names = "--runs", defaultValue = "3", paramLabel = "N", description = "runs of each query; medians shown")
    int runs;
    @Option(names = "--warm-ups", defaultValue = "3", paramLabel = "N",
            description = "unmeasured runs of each query first (the JIT compiles the read path)")
    int warmUps;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED", description = "seed of the generated tree")
    long seed;
    @Option(names = "--questions-only", description = "one cold scan per engine (with the name search index), then "
            + "the questions; no write costs")
    boolean questionsOnly;
    @Option(names = "--no-plocate", description = "leave out the plocate baseline (Debian package plocate), so the"
            + " substring row has no ratio")
    boolean noPlocate;
    @Option(names = "--keep", description = "keep the generated tree and databases instead of deleting them")
    boolean keep;

    /** Files of at least this many bytes, modified after {@link #SINCE}, are what the range question asks for. */
    private static final long MIN_SIZE = 10 * 1024 + 1;
    private static final Instant SINCE = Instant.parse("2025-06-01T00:00:00Z");
    /** The page size of the range questions: each page below a large directory reads the whole table once. */
    private static final int RANGE_PAGE = 10_000;
    /** How many paths the lookup question looks up, one call each. */
    private static final int LOOKUPS = 1_000;

    private final List<String> rows = new ArrayList<>();

    public static void main(String[] args) {
        BenchCommand.main(new QueryBench(), args);
    }

    @Override
    public Integer call() throws Exception {
        try (Scratch scratch = Scratch.create(workDir, "fsindex-query-bench-", keep)) {
            Path run = scratch.dir();
            Scratch.GeneratedTree tree = scratch.generateTree("tree", entries, seed);
            Path root = tree.root();
            TreeGenerator.Stats stats = tree.stats();
            long ranged = spreadSizesAndTimes(root);
            progress.printf("generated %d entries under %s; %d files sized and dated%n", stats.entries(), root,
                    ranged);
            Path part = tree.generator().topLevelDirectories(root).get(0);
            Baseline base = baselines(run, root, part);
            out.printf("| question (%d entries) | engine | baseline | baseline (s) | fsindex (s) | ratio | target |%n",
                    stats.entries());
            out.println("|---|---|---|---|---|---|---|");
            for (Engine engine : engines) {
                try (Server server = Server.start(engine, run)) {
                    measure(engine, server, root, part, base);
                }
            }
            rows.forEach(out::println);
            out.flush();
            return 0;
        }
    }

    /** What the tools answer and how long they take, each on the warm tree; {@code plocate} null if left out. */
    private record Baseline(Plocate plocate, double du, double find, long findLines, double findRoot,
                            long findRootLines, long walkMatches, List<Path> lookedUp, double stat) {
    }

    /** How long {@code plocate} took to answer the substring question, and how many paths it printed. */
    private record Plocate(double seconds, long lines) {
    }

    private Baseline baselines(Path run, Path root, Path part) throws IOException {
        String needle = pattern.toLowerCase(Locale.ROOT);
        long matches;
        try (Stream<Path> all = Files.walk(root)) {
            matches = all.filter(p -> !p.equals(root))
                    .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).contains(needle)).count();
        }
        Plocate plocate = noPlocate ? null : plocate(run, root, matches);
        Path ref = run.resolve("newer-than");
        Files.createFile(ref);
        Files.setLastModifiedTime(ref, FileTime.from(SINCE));
        long[] lines = new long[2];
        double du = median(() -> exec("du", "-s", "--apparent-size", root.toString()));
        String size = "+" + (MIN_SIZE - 1) / 1024 + "k";
        double find = median(() -> lines[0] = exec("find", part.toString(), "-type", "f", "-size", size, "-newer",
                ref.toString()));
        double findRoot = median(() -> lines[1] = exec("find", root.toString(), "-type", "f", "-size", size,
                "-newer", ref.toString()));
        List<Path> lookedUp;
        try (Stream<Path> some = Files.walk(part)) {
            lookedUp = some.filter(Files::isRegularFile).limit(LOOKUPS).toList();
        }
        double stat = median(() -> {
            for (Path p : lookedUp) {
                try {
                    Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return lookedUp.size();
        });
        return new Baseline(plocate, du, find, lines[0], findRoot, lines[1], matches, lookedUp, stat);
    }

    /** Builds a {@code plocate} database of the tree and times the substring question on it. */
    private Plocate plocate(Path run, Path root, long matches) {
        Path db = run.resolve("plocate.db");
        try {
            // No pruning: the system's configuration may prune the temporary directory the tree is in.
            exec("updatedb", "-o", db.toString(), "-U", root.toString(), "--require-visibility", "0",
                    "--prunepaths", "", "--prunenames", "", "--prune-bind-mounts", "no");
        } catch (UncheckedIOException notRun) {
            throw new IllegalStateException("cannot run updatedb (" + notRun.getCause().getMessage() + "):"
                    + " install the Debian package plocate, or run with --no-plocate to leave that baseline out",
                    notRun);
        }
        long[] lines = new long[1];
        double seconds = median(() -> lines[0] = exec("plocate", "-i", "-d", db.toString(), pattern));
        expect(lines[0] >= matches, "plocate found " + lines[0] + " paths containing " + pattern + "; a walk finds "
                + matches + " names: is the tree pruned from its database?");
        return new Plocate(seconds, lines[0]);
    }

    private void measure(Engine engine, Server server, Path root, Path part, Baseline base) throws Exception {
        String name = server.label();
        double plain = 0;
        double treeless = 0;
        if (!questionsOnly) {
            progress.printf("%s: cold scan without the name search index%n", name);
            plain = coldScan(server, "plain_", false, root);
        }
        progress.printf("%s: cold scan with the name search index%n", name);
        double indexed = coldScan(server, "named_", true, root);
        if (!questionsOnly) {
            progress.printf("%s: cold scan without the tree index%n", name);
            treeless = coldScan(server, "bare_", false, root);
        }
        long[] found = new long[4];
        try (IndexReader reader = server.builder("named_").buildReader()) {
            double search = median(() -> found[0] = count(reader, FileQuery.any().withNameContaining(pattern)));
            double du = median(() -> found[1] = reader.directorySize(root).map(DirectorySize::bytes).orElseThrow());
            FileQuery range = FileQuery.any().withKind(FileKind.FILE).withSize(MIN_SIZE, null)
                    .withModified(SINCE, null).withLimit(RANGE_PAGE);
            double find = median(() -> found[2] = count(reader, range.withUnder(part)));
            double findRoot = median(() -> found[3] = count(reader, range.withUnder(root)));
            long[] hits = new long[1];
            double lookups = median(() -> hits[0] = base.lookedUp.stream().filter(p -> reader.lookup(p).isPresent())
                    .count());
            expect(hits[0] == base.lookedUp.size(), name + " found " + hits[0] + " of " + base.lookedUp.size()
                    + " files looked up");
            expect(found[0] == base.walkMatches, name + " found " + found[0] + " names containing " + pattern
                    + "; a walk finds " + base.walkMatches);
            expect(found[2] == base.findLines && found[3] == base.findRootLines, name + " found " + found[2] + " and "
                    + found[3] + " files in the ranges; find found " + base.findLines + " and " + base.findRootLines);
            Plocate p = base.plocate;
            row("names containing \"" + pattern + "\" (" + found[0] + (p == null ? "" : "; plocate's paths: "
                    + p.lines()) + ")", name, p == null ? "(plocate left out)" : "plocate -i",
                    p == null ? Double.NaN : p.seconds(), search, "≤ 3");
            row("du of the whole tree", name, "du -s --apparent-size", base.du, du, "≤ 0.25");
            row("size ≥ 10 KiB, newer, under a quarter (" + found[2] + "; pages of " + RANGE_PAGE + ")", name,
                    "find -size -newer", base.find, find, "≤ 0.25");
            row("the same under the root (" + found[3] + ")", name, "find -size -newer", base.findRoot, findRoot,
                    "≤ 0.25");
            row(base.lookedUp.size() + " lookups of a file's path, one call each", name, "stat in the JVM", base.stat,
                    lookups, "(none)");
        }
        if (!questionsOnly) {
            row("cold scan with the name search index", name, "without", plain, indexed, "≤ 1.3");
            row("cold scan with the tree index (schema 7)", name, "without (dropped)", treeless, plain,
                    "≤ 1.05");
        }
    }

    /**
     * The seconds a cold scan of {@code root} into fresh tables {@code prefix} takes; prefix {@code bare_} drops the
     * tree index first, so the scan writes the rows of schema version 7 without it.
     */
    private double coldScan(Server server, String prefix, boolean nameSearch, Path root) throws SQLException {
        try (FsIndex index = server.builder(prefix).nameSearchIndex(nameSearch).build()) {
            if (prefix.equals("bare_")) {
                server.dropTreeIndex(prefix);
            }
            long start = System.nanoTime();
            index.scan(root);
            return (System.nanoTime() - start) / 1e9;
        }
    }

    private void row(String question, String engine, String baseline, double baseSeconds, double seconds,
                     String target) {
        if (Double.isNaN(baseSeconds)) {
            rows.add(String.format(Locale.ROOT, "| %s | %s | %s | - | %.3f | - | %s |", question, engine, baseline,
                    seconds, target));
            return;
        }
        rows.add(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %.2f | %s |", question, engine, baseline,
                baseSeconds, seconds, seconds / baseSeconds, target));
    }

    /** The entries {@code query} finds, page after page. */
    static long count(IndexReader reader, FileQuery query) {
        long found = 0;
        for (FindPage page = reader.find(query); ; page = reader.find(query.after(page.cursor()))) {
            found += page.entries().size();
            if (!page.more()) {
                return found;
            }
        }
    }

    /**
     * Gives one file in eight a size (sparse, up to 64 KiB) and one in two a modification time within the two years
     * before the run's, drawn from the seed, so that size and time ranges select something.
     */
    private long spreadSizesAndTimes(Path root) throws IOException {
        SplittableRandom rng = new SplittableRandom(seed);
        Instant now = Instant.now();
        long[] touched = new long[1];
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isRegularFile).forEach(f -> {
                try {
                    if (rng.nextInt(8) == 0) {
                        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                            raf.setLength(1 + rng.nextInt(64 * 1024));
                        }
                        touched[0]++;
                    }
                    if (rng.nextBoolean()) {
                        Files.setLastModifiedTime(f, FileTime.from(now.minusSeconds(rng.nextLong(2 * 365 * 86_400L))));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return touched[0];
    }

    /** Runs a command to its end and returns the lines it printed. */
    private static long exec(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            long lines;
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                lines = in.lines().count();
            }
            int code = p.waitFor();
            if (code != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + code);
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The median seconds of {@link #runs} runs, after {@link #warmUps} unmeasured ones that warm caches and the JIT. */
    private double median(LongSupplier work) {
        for (int i = 0; i < warmUps; i++) {
            work.getAsLong();
        }
        double[] seconds = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            work.getAsLong();
            seconds[i] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(seconds);
        return seconds[runs / 2];
    }

    private static void expect(boolean holds, String message) {
        if (!holds) {
            throw new IllegalStateException(message);
        }
    }

    /** One engine's database for the run, started (or created) fresh and closed at the end. */
    private interface Server extends AutoCloseable {
        String label();

        FsIndex.Builder builder(String prefix);

        /** Drops the tree index of tables {@code prefix} (schema version 7), on a connection of its own. */
        void dropTreeIndex(String prefix) throws SQLException;

        @Override
        void close() throws Exception;

        static Server start(Engine engine, Path run) throws Exception {
            switch (engine) {
                case sqlite -> {
                    return new Server() {
                        public String label() {
                            return "SQLite";
                        }

                        public FsIndex.Builder builder(String prefix) {
                            return FsIndex.builder().jdbcUrl(url(prefix));
                        }

                        private String url(String prefix) {
                            return "jdbc:sqlite:" + run.resolve(prefix + "index.db");
                        }

                        public void dropTreeIndex(String prefix) throws SQLException {
                            // A file per prefix here, each with the default table prefix.
                            try (Connection c = DriverManager.getConnection(url(prefix));
                                 Statement st = c.createStatement()) {
                                st.execute("DROP INDEX fsindex_files_tree");
                            }
                        }

                        public void close() {
                        }
                    };
                }
                case postgres -> {
                    PostgresServer pg = PostgresServer.startEmbedded(run.resolve("pg-data"));
                    return new Server() {
                        public String label() {
                            return "PostgreSQL";
                        }

                        public FsIndex.Builder builder(String prefix) {
                            return FsIndex.builder().jdbcUrl(pg.url()).user(pg.user()).password(pg.password())
                                    .tablePrefix(prefix);
                        }

                        public void dropTreeIndex(String prefix) throws SQLException {
                            try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                                 Statement st = c.createStatement()) {
                                st.execute("DROP INDEX " + prefix + "files_tree");
                            }
                        }

                        public void close() throws IOException {
                            pg.close();
                        }
                    };
                }
                default -> {
                    InnoDbServer.Engine kind = engine == Engine.mysql ? InnoDbServer.Engine.MYSQL
                            : InnoDbServer.Engine.MARIADB;
                    MySqlServer my = MySqlServer.start(kind, run.resolve(kind.scheme));
                    return new Server() {
                        public String label() {
                            return kind.label.split(" ")[0];
                        }

                        public FsIndex.Builder builder(String prefix) {
                            return FsIndex.builder().jdbcUrl(my.loadDataUrl()).user(my.user()).tablePrefix(prefix);
                        }

                        public void dropTreeIndex(String prefix) throws SQLException {
                            try (Connection c = my.connect(my.url()); Statement st = c.createStatement()) {
                                st.execute("DROP INDEX " + prefix + "files_tree ON " + prefix + "files");
                            }
                        }

                        public void close() {
                            my.close();
                        }
                    };
                }
            }
        }
    }
}
