package io.fsindex.benchmarks;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Asks an index what a walk of the disk would otherwise answer, in the same run: a substring search over names
 * against {@code Files.walk} filtering names, and a directory size against a walk summing sizes. SQLite only for now.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.QueryBench --entries 1000000
 * </pre>
 */
@Command(name = "query-bench", mixinStandardHelpOptions = true,
        description = "Times find and du on an index against walking the same tree, and prints one table.")
public final class QueryBench implements Callable<Integer> {
    @Option(names = "--entries", defaultValue = "100000", paramLabel = "N", description = "entries in the tree")
    long entries;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the tree and database")
    Path workDir;
    @Option(names = "--pattern", defaultValue = "q7", paramLabel = "TEXT", description = "text to search names for")
    String pattern;
    @Option(names = "--runs", defaultValue = "3", paramLabel = "N", description = "runs of each; medians shown")
    int runs;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED", description = "seed of the generated tree")
    long seed;

    private PrintWriter out;
    private PrintWriter progress;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with the table going to {@code out} and progress to {@code progress}. */
    static int execute(String[] args, PrintWriter out, PrintWriter progress) {
        QueryBench bench = new QueryBench();
        bench.out = out;
        bench.progress = progress;
        CommandLine cli = new CommandLine(bench);
        cli.setOut(out);
        cli.setErr(progress);
        return cli.execute(args);
    }

    @Override
    public Integer call() throws IOException {
        Path run = Files.createTempDirectory(workDir == null ? Path.of(System.getProperty("java.io.tmpdir")) : workDir,
                "fsindex-query-bench-");
        try {
            Path root = Files.createDirectories(run.resolve("tree")).toRealPath();
            TreeGenerator.Stats stats = new TreeGenerator(TreeGenerator.Shape.of(entries, seed)).generate(root, 2);
            progress.printf("generated %d entries under %s%n", stats.entries(), root);
            String url = "jdbc:sqlite:" + run.resolve("query.db");
            try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
                index.scan(root);
            }
            String needle = pattern.toLowerCase(Locale.ROOT);
            try (IndexReader reader = FsIndex.builder().jdbcUrl(url).buildReader()) {
                long[] walkFound = new long[1];
                long[] findFound = new long[1];
                double walkFind = median(() -> walkFound[0] = walk(root, needle));
                double indexFind = median(() -> findFound[0] = find(reader, root));
                long[] walkBytes = new long[1];
                long[] indexBytes = new long[1];
                double walkDu = median(() -> walkBytes[0] = walkSize(root));
                double indexDu = median(() -> indexBytes[0] = reader.directorySize(root).map(DirectorySize::bytes)
                        .orElseThrow());
                if (walkFound[0] != findFound[0] || walkBytes[0] != indexBytes[0]) {
                    throw new IllegalStateException("the index disagrees with the walk: " + findFound[0] + " vs "
                            + walkFound[0] + " names, " + indexBytes[0] + " vs " + walkBytes[0] + " bytes");
                }
                out.printf("| question (%d entries, SQLite) | walk (s) | index (s) | index ÷ walk |%n",
                        stats.entries());
                out.println("|---|---|---|---|");
                out.printf("| names containing \"%s\" (%d found) | %.3f | %.3f | %.2f |%n", pattern, findFound[0],
                        walkFind, indexFind, indexFind / walkFind);
                out.printf("| du of the whole tree (%d bytes) | %.3f | %.3f | %.2f |%n", indexBytes[0], walkDu,
                        indexDu, indexDu / walkDu);
                out.flush();
            }
            return 0;
        } finally {
            deleteTree(run);
        }
    }

    private long find(IndexReader reader, Path root) {
        FileQuery query = FileQuery.any().withNameContaining(pattern).withUnder(root);
        long found = 0;
        for (FindPage page = reader.find(query); ; page = reader.find(query.after(page.cursor()))) {
            found += page.entries().size();
            if (!page.more()) {
                return found;
            }
        }
    }

    private static long walk(Path root, String needle) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> !p.equals(root))
                    .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).contains(needle)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long walkSize(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.mapToLong(p -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    return a.isRegularFile() ? a.size() : 0;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The median seconds of {@link #runs} runs, after one unmeasured run that warms caches and the JIT. */
    private double median(LongSupplier work) {
        work.getAsLong();
        double[] seconds = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            work.getAsLong();
            seconds[i] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(seconds);
        return seconds[runs / 2];
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
