package io.fsindex.benchmarks;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanScope;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The scope scenario: cold scans of the same tree into an empty index with no rules, with twenty common
 * patterns that exclude nothing, and with patterns that exclude about half the tree's entries, run in turn.
 */
final class ScopeBench {
    /** Patterns real trees carry, none of which matches a generated tree's names. */
    static final List<String> NOTHING = List.of("node_modules/", ".git/", "*.tmp", "*.swp", "~*", "Thumbs.db",
            ".DS_Store", "__pycache__/", "*.pyc", "/proc", "build/", "target/", ".cache/", "*.bak", "**/tmp/**",
            "[Cc]ore", "*.o", ".Trash-*/", "lost+found/", "*.part");

    private final BenchRun run;

    ScopeBench(BenchRun run) {
        this.run = run;
    }

    /**
     * Cold scans of {@code tree} on one engine with no rules, with twenty patterns that exclude nothing, and with
     * patterns that exclude about half the tree, in turn in each run, each into an empty index ({@code reset}
     * empties it); adds the three rows.
     */
    void measure(Path tree, long n, String engine, Supplier<FsIndex> open, HugeRoot.Step reset) throws Exception {
        Map.Entry<List<String>, Long> half = half(tree);
        Series none = new Series();
        Series twenty = new Series();
        Series halved = new Series();
        ScanScope nothing = ScanScope.defaults().withExcludes(NOTHING);
        ScanScope halfOut = ScanScope.defaults().withExcludes(half.getKey());
        for (int r = 0; r < run.runs; r++) {
            long all = 0;
            for (int kind = 0; kind < 3; kind++) {
                reset.run();
                try (FsIndex index = open.get()) {
                    String what = engine + " run " + (r + 1) + "/" + run.runs + ": cold scan, "
                            + (kind == 0 ? "no rules" : kind == 1 ? "20 patterns excluding nothing"
                            : half.getKey().size() + " patterns excluding " + half.getValue() + " entries");
                    run.log(what);
                    run.heapBegin();
                    long t0 = System.nanoTime();
                    ScanResult result = index.scan(tree, kind == 0 ? ScanOptions.defaults()
                            : ScanOptions.defaults().withScope(kind == 1 ? nothing : halfOut));
                    double seconds = BenchRun.secondsSince(t0);
                    (kind == 0 ? none : kind == 1 ? twenty : halved).add(seconds, run.heapEnd());
                    run.log(String.format(Locale.ROOT, "%s: %.2f s (added %d)", what, seconds, result.added()));
                    if (kind == 0) {
                        all = result.added();
                    } else if (kind == 1) {
                        run.expect(result.added() == all, "the 20 patterns excluded " + (all - result.added())
                                + " entries");
                    }
                }
            }
            reset.run();
        }
        run.add(run.row("scope: cold scan, no rules", engine, n, none, Double.NaN, "", "", null));
        run.add(run.row("scope: 20 patterns excluding nothing", engine, n, twenty, none.median(), "no rules",
                "≤ 1.05", 1.05));
        run.add(run.row("scope: half the tree excluded (" + half.getValue() + " entries)", engine, n, halved,
                none.median(), "no rules", "≤ 0.6", 0.6));
    }

    /**
     * Anchored patterns naming top-level subtrees (below the first level with more than one child) that hold about
     * half the tree's entries, and how many entries they exclude.
     */
    static Map.Entry<List<String>, Long> half(Path tree) throws IOException {
        Path top = tree;
        String prefix = "/";
        while (true) {
            List<Path> children;
            try (Stream<Path> s = Files.list(top)) {
                children = s.sorted().toList();
            }
            if (children.size() != 1 || !Files.isDirectory(children.get(0))) {
                break;
            }
            top = children.get(0);
            prefix += top.getFileName() + "/";
        }
        Map<Path, Long> sizes = new TreeMap<>();
        long total = 0;
        try (Stream<Path> s = Files.list(top)) {
            for (Path child : s.sorted().toList()) {
                long count;
                try (Stream<Path> below = Files.walk(child)) {
                    count = below.count();
                }
                sizes.put(child, count);
                total += count;
            }
        }
        List<String> patterns = new ArrayList<>();
        long excluded = 0;
        List<Map.Entry<Path, Long>> bySize = new ArrayList<>(sizes.entrySet());
        bySize.sort(Map.Entry.<Path, Long>comparingByValue(Comparator.reverseOrder()));
        for (Map.Entry<Path, Long> e : bySize) {
            if (excluded + e.getValue() <= total / 2 + total / 20) {
                patterns.add(prefix + e.getKey().getFileName());
                excluded += e.getValue();
            }
        }
        return Map.entry(patterns, excluded);
    }
}
