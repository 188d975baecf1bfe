package io.fsindex.benchmarks;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.IndexWatch;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import io.fsindex.testservers.InnoDbServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The watch scenario: how soon a change on disk reaches the change feed while {@link FsIndex#watch} runs and a
 * writer keeps changing the tree, beside what one full rescan (polling) costs, and what an idle watch costs.
 * <pre>
 * java -Xmx256m -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.WatchBench --entries 1000000
 * </pre>
 */
@Command(name = "watch-bench", mixinStandardHelpOptions = true,
        description = "Times change-to-feed latency under a steady writer while a watch runs, and prints one table.")
public final class WatchBench extends BenchCommand {
    @Option(names = "--entries", defaultValue = "100000", paramLabel = "N", description = "entries in the tree")
    long entries;
    @Option(names = "--engines", split = ",", defaultValue = "sqlite,postgres", paramLabel = "ENGINE",
            description = "any of sqlite, postgres, mysql, mariadb (servers embedded)")
    List<String> engines;
    @Option(names = "--rate", defaultValue = "1000", paramLabel = "N", description = "changes per second")
    int rate;
    @Option(names = "--seconds", defaultValue = "10", paramLabel = "S", description = "how long the writer runs")
    int seconds;
    @Option(names = "--settle-ms", defaultValue = "100", paramLabel = "MS", description = "the watch's settle window")
    long settleMs;
    @Option(names = "--parallel-scans", defaultValue = "" + WatchOptions.DEFAULT_PARALLEL_SCANS, paramLabel = "N",
            description = "scans the watch runs at once")
    int parallelScans;
    @Option(names = "--idle-seconds", defaultValue = "10", paramLabel = "S", description = "idle time measured")
    int idleSeconds;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the tree and database")
    Path workDir;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED", description = "seed of the tree and writer")
    long seed;

    public static void main(String[] args) {
        BenchCommand.main(new WatchBench(), args);
    }

    /** One engine's figures. */
    private record Result(String engine, long entries, long watches, double watchStartS, double rescanS, long changes,
                          double p50Ms, double p99Ms, double maxMs, double convergeS, double idleCpuPercent,
                          long idleScans, long heapMiB) {
    }

    @Override
    public Integer call() throws Exception {
        List<Result> results = new ArrayList<>();
        try (Scratch scratch = Scratch.create(workDir, "fsindex-watch-bench-", false)) {
            Path run = scratch.dir();
            for (String engine : engines) {
                Scratch.GeneratedTree tree = scratch.generateTree("tree-" + engine, entries, seed);
                Path root = tree.root();
                progress.printf("generated %d entries under %s%n", tree.stats().entries(), root);
                if (engine.equals("postgres")) {
                    try (PostgresServer pg = PostgresServer.startEmbedded(run.resolve("pg"))) {
                        results.add(measure(engine, root, FsIndex.builder().jdbcUrl(pg.url()).user(pg.user())));
                    }
                } else if (engine.equals("mysql") || engine.equals("mariadb")) {
                    InnoDbServer.Engine kind = InnoDbServer.Engine.valueOf(engine.toUpperCase(Locale.ROOT));
                    try (MySqlServer server = MySqlServer.start(kind, run.resolve(kind.scheme))) {
                        results.add(measure(engine, root, FsIndex.builder().jdbcUrl(server.loadDataUrl())
                                .user(server.user())));
                    }
                } else if (engine.equals("sqlite")) {
                    results.add(measure(engine, root,
                            FsIndex.builder().jdbcUrl("jdbc:sqlite:" + run.resolve("watch.db"))));
                } else {
                    throw new IllegalArgumentException("unknown engine " + engine
                            + ": give any of sqlite, postgres, mysql, mariadb");
                }
            }
        }
        out.println("| engine | entries | watched directories | watch start (initial scan) | one full rescan | changes"
                + " | latency p50 | p99 | max | converged after writer stopped | idle CPU | scans while idle | heap"
                + " used |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            out.printf("| %s | %,d | %,d | %.1f s | %.1f s | %,d | %.0f ms | %.0f ms | %.0f ms | %.2f s | %.2f %% | %d"
                            + " | %d MiB |%n", r.engine(), r.entries(), r.watches(), r.watchStartS(), r.rescanS(),
                    r.changes(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.convergeS(), r.idleCpuPercent(), r.idleScans(),
                    r.heapMiB());
        }
        return 0;
    }

    private Result measure(String engine, Path root, FsIndex.Builder builder) throws Exception {
        try (FsIndex index = builder.build()) {
            long start = System.nanoTime();
            try (IndexWatch watch = index.watch(root, WatchOptions.defaults()
                    .withSettle(Duration.ofMillis(settleMs)).withParallelScans(parallelScans))) {
                double watchStart = seconds(System.nanoTime() - start);
                progress.printf("%s: watching %d directories after %.1f s%n", engine,
                        watch.state().watchedDirectories(), watchStart);
                long rescanStart = System.nanoTime();
                index.scan(root);
                double rescan = seconds(System.nanoTime() - rescanStart);

                Writer writer = new Writer(root, new SplittableRandom(seed));
                FeedClock feed = new FeedClock(index, index.changeFeedEnd(), writer);
                feed.start();
                writer.run(rate, seconds);
                long stopped = System.nanoTime();
                feed.awaitQuiet(stopped, TimeUnit.SECONDS.toNanos(3));
                double converge = seconds(Math.max(0, feed.lastSeenAt - stopped));
                feed.stopReading();
                double[] latencies = writer.latenciesMs();
                progress.printf("%s: %d changes, %d seen in the feed (the rest were undone or renamed before a"
                        + " scan saw them)%n", engine, writer.changes.size(), latencies.length);

                Thread.sleep(2000);              // let the last scans end before measuring idleness
                long scansBefore = watch.state().scans();
                var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                long cpuBefore = os.getProcessCpuTime();
                long idleStart = System.nanoTime();
                Thread.sleep(TimeUnit.SECONDS.toMillis(idleSeconds));
                double idleCpu = 100.0 * (os.getProcessCpuTime() - cpuBefore) / (System.nanoTime() - idleStart);
                long idleScans = watch.state().scans() - scansBefore;
                System.gc();
                Runtime rt = Runtime.getRuntime();
                long heap = (rt.totalMemory() - rt.freeMemory()) >> 20;
                return new Result(engine, Files.walk(root).count() - 1, watch.state().watchedDirectories(),
                        watchStart, rescan, writer.changes.size(), percentile(latencies, 50),
                        percentile(latencies, 99), latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1],
                        converge, idleCpu, idleScans, heap);
            }
        }
    }

    /** One change the writer made: the feed path that shows it, when it was made, and when the feed had it. */
    private static final class Made {
        final String path;
        final long at;
        volatile long seenAt;

        Made(String path, long at) {
            this.path = path;
            this.at = at;
        }
    }

    /**
     * Makes changes at a steady rate in a directory of its own below each top-level directory: creates files,
     * rewrites them, renames and deletes them, and once a second moves a directory from one place to another.
     */
    private static final class Writer {
        final List<Made> changes = new ArrayList<>();
        final Map<String, List<Made>> unseen = new HashMap<>();
        private final SplittableRandom rng;
        private final List<Path> dirs = new ArrayList<>();
        private final List<Path> files = new ArrayList<>();
        private int counter;

        Writer(Path root, SplittableRandom rng) throws IOException {
            this.rng = rng;
            try (Stream<Path> top = Files.list(root)) {
                for (Path p : top.filter(Files::isDirectory).toList()) {
                    dirs.add(Files.createDirectories(p.resolve("watch-bench")));
                }
            }
        }

        void run(int rate, int seconds) throws IOException {
            long interval = TimeUnit.SECONDS.toNanos(1) / rate;
            long next = System.nanoTime();
            long end = next + TimeUnit.SECONDS.toNanos(seconds);
            long nextMove = next + TimeUnit.SECONDS.toNanos(1);
            while (System.nanoTime() < end) {
                long now = System.nanoTime();
                if (now < next) {
                    LockSupport.parkNanos(next - now);
                    continue;
                }
                next += interval;
                if (now >= nextMove && dirs.size() > 1) {
                    moveDirectory();
                    nextMove += TimeUnit.SECONDS.toNanos(1);
                    continue;
                }
                int what = files.size() < 100 ? 0 : rng.nextInt(100);
                if (what < 40) {
                    Path f = dirs.get(rng.nextInt(dirs.size())).resolve("f" + counter++);
                    Files.writeString(f, "x");
                    files.add(f);
                    made(f);
                } else if (what < 70) {
                    Path f = files.get(rng.nextInt(files.size()));
                    Files.writeString(f, "x".repeat(1 + rng.nextInt(100)));
                    made(f);
                } else if (what < 85) {
                    Path f = files.remove(rng.nextInt(files.size()));
                    Files.delete(f);
                    made(f);
                } else {
                    int i = rng.nextInt(files.size());
                    Path to = files.get(i).resolveSibling("r" + counter++);
                    Files.move(files.get(i), to);
                    files.set(i, to);
                    made(to);
                }
            }
        }

        /** Moves a directory holding a few files from one writer directory into another. */
        private void moveDirectory() throws IOException {
            Path from = dirs.get(rng.nextInt(dirs.size())).resolve("d" + counter++);
            Files.createDirectories(from);
            for (int i = 0; i < 3; i++) {
                Files.writeString(from.resolve("in" + i), "y");
            }
            Path to = dirs.get(rng.nextInt(dirs.size())).resolve("moved" + counter++);
            Files.move(from, to);
            made(to);
        }

        private synchronized void made(Path p) {
            Made m = new Made(p.toString(), System.nanoTime());
            changes.add(m);
            unseen.computeIfAbsent(m.path, k -> new ArrayList<>()).add(m);
        }

        /** The feed has a change of {@code path}: every change made there before {@code at} is seen now. */
        synchronized int seen(String path, long at) {
            List<Made> list = unseen.get(path);
            if (list == null) {
                return 0;
            }
            int n = 0;
            for (var it = list.iterator(); it.hasNext(); ) {
                Made m = it.next();
                if (m.at <= at) {
                    m.seenAt = at;
                    it.remove();
                    n++;
                }
            }
            if (list.isEmpty()) {
                unseen.remove(path);
            }
            return n;
        }

        synchronized int unseenCount() {
            return unseen.values().stream().mapToInt(List::size).sum();
        }

        synchronized double[] latenciesMs() {
            return changes.stream().filter(m -> m.seenAt != 0).mapToDouble(m -> (m.seenAt - m.at) / 1e6).sorted()
                    .toArray();
        }
    }

    /** Reads the change feed every few milliseconds and tells the writer when each path's change arrived. */
    private static final class FeedClock extends Thread {
        private final FsIndex index;
        private final Writer writer;
        private long cursor;
        private volatile boolean stopping;
        volatile long lastSeenAt;

        FeedClock(FsIndex index, long cursor, Writer writer) {
            super("watch-bench-feed");
            setDaemon(true);
            this.index = index;
            this.cursor = cursor;
            this.writer = writer;
        }

        @Override
        public void run() {
            while (!stopping) {
                ChangeBatch batch = index.changesSince(cursor, 10_000);
                long now = System.nanoTime();
                for (Change c : batch.changes()) {
                    if (writer.seen(c.path().toString(), now) > 0) {
                        lastSeenAt = now;
                    }
                }
                cursor = batch.nextCursor();
                if (batch.changes().isEmpty()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
        }

        /**
         * Waits until every change is seen, or nothing new was seen for {@code quietNanos}: a file created and
         * deleted (or renamed) within one settle window never shows in the feed under that name, rightly.
         */
        void awaitQuiet(long since, long quietNanos) throws InterruptedException {
            while (writer.unseenCount() > 0 && System.nanoTime() - Math.max(since, lastSeenAt) < quietNanos) {
                Thread.sleep(10);
            }
        }

        void stopReading() throws InterruptedException {
            stopping = true;
            join();
        }
    }

    private static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
