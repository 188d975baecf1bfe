package io.fsindex.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

    private ScopeBench() {
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
