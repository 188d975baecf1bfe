package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The modes scenario on PostgreSQL ({@link PostgresModes}): a cold scan and four concurrent quarter scans into an
 * empty index in each mode, in turn in each run, each mode's times relative to the default mode's.
 */
final class ModesBench {
    private final BenchRun run;
    private final ServerScans scans;

    ModesBench(BenchRun run, ServerScans scans) {
        this.run = run;
        this.scans = scans;
    }

    /** Runs the scenario on {@code server}, emptying the index with {@code drop} before each scan. */
    void measure(PostgresServer server, TreeGenerator generator, Path tree, HugeRoot.Step drop) throws Exception {
        long n = generator.entries();
        Map<PostgresModes, Series> cold = new EnumMap<>(PostgresModes.class);
        Map<PostgresModes, Series> quarters = new EnumMap<>(PostgresModes.class);
        Map<PostgresModes, long[]> retries = new EnumMap<>(PostgresModes.class);
        for (int r = 0; r < run.runs; r++) {
            for (PostgresModes mode : PostgresModes.values()) {
                long[] counts = retries.computeIfAbsent(mode, m -> new long[4]);
                Supplier<FsIndex> open = () -> mode.apply(FsIndex.builder().jdbcUrl(server.url())
                        .user(server.user()).password(server.password()).tablePrefix("bench_")).build();
                drop.run();
                try (FsIndex index = open.get()) {
                    run.log("PostgreSQL run " + (r + 1) + "/" + run.runs + ": cold scan, " + mode.label);
                    run.timedScan(index, tree, cold.computeIfAbsent(mode, m -> new Series()),
                            "PostgreSQL cold scan, " + mode.label);
                    counts[0] += index.transactionRetries();
                    counts[1] += PostgresModes.groupSplits(index);
                }
                drop.run();
                run.log("PostgreSQL run " + (r + 1) + "/" + run.runs + ": four concurrent quarter scans, "
                        + mode.label);
                long[] quarterCounts = new long[2];
                scans.concurrentQuarters(open, "PostgreSQL", generator.topLevelDirectories(tree),
                        quarters.computeIfAbsent(mode, m -> new Series()), quarterCounts);
                counts[2] += quarterCounts[0];
                counts[3] += quarterCounts[1];
            }
        }
        drop.run();
        PostgresModes reference = PostgresModes.values()[0];
        for (PostgresModes mode : PostgresModes.values()) {
            long[] c = retries.get(mode);
            run.add(run.row("modes: cold scan, " + mode.label, "PostgreSQL", n, cold.get(mode),
                    cold.get(reference).median(), "cold scan, " + reference.label, "", null));
            run.add(run.row("modes: 4 concurrent quarter scans, " + mode.label, "PostgreSQL", n, quarters.get(mode),
                    quarters.get(reference).median(), "quarter scans, " + reference.label, "", null));
            run.note(String.format(Locale.ROOT, "modes, %s: %d retries and %d group splits in %d cold scans,"
                    + " %d retries and %d group splits in %d runs of four quarter scans", mode.label, c[0], c[1],
                    run.runs, c[2], c[3], run.runs));
        }
    }
}
