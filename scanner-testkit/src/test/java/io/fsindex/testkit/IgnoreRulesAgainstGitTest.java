package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.scope.IgnoreRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fsindex's pattern matcher decides every path of random trees as git does, for random pattern sets, with and without
 * case folding (no database: the conformance suites check the scans).
 */
class IgnoreRulesAgainstGitTest {
    @TempDir
    Path tmp;

    @Test
    void decidesAsGitDoes() throws Exception {
        for (int round = 0; round < 60; round++) {
            long seed = 7919L * round + 17;
            Random random = new Random(seed);
            Path tree = Files.createDirectories(tmp.resolve("t" + round));
            Trees.create(tree, RandomScopes.tree(random, 40, 4).toArray(String[]::new));
            List<String> patterns = RandomScopes.patterns(random, 1 + random.nextInt(6));
            boolean ignoreCase = random.nextInt(3) == 0;
            Map<String, String> expected = GitIgnoreOracle.kept(tree, patterns, ignoreCase, tmp.resolve("g" + round));
            assertThat(keptBy(IgnoreRules.compile(patterns, ignoreCase), Trees.onDisk(tree)))
                    .as("seed %d, patterns %s, ignoreCase %s", seed, patterns, ignoreCase)
                    .isEqualTo(expected);
        }
    }

    @Test
    void theCommonFormsMatchAsDocumented() {
        IgnoreRules r = IgnoreRules.compile(List.of("node_modules/", "*.tmp", "!keep.tmp", "/build", "docs/**/*.pdf",
                "**/cache", "\\#x", "a?c", "[!0-9]z"), false);
        assertThat(r.excludes("src", "node_modules", true)).isTrue();
        assertThat(r.excludes("src", "node_modules", false)).isFalse();
        assertThat(r.excludes("a/b", "x.tmp", false)).isTrue();
        assertThat(r.excludes("a/b", "keep.tmp", false)).isFalse();
        assertThat(r.excludes("", "build", false)).isTrue();
        assertThat(r.excludes("src", "build", false)).isFalse();
        assertThat(r.excludes("docs", "a.pdf", false)).isTrue();
        assertThat(r.excludes("docs/x/y", "a.pdf", false)).isTrue();
        assertThat(r.excludes("other/docs", "a.pdf", false)).isFalse();
        assertThat(r.excludes("q/r", "cache", true)).isTrue();
        assertThat(r.excludes("", "#x", false)).isTrue();
        assertThat(r.excludes("", "abc", false)).isTrue();
        assertThat(r.excludes("", "a/c", false)).isFalse();
        assertThat(r.excludes("", "xz", false)).isTrue();
        assertThat(r.excludes("", "1z", false)).isFalse();
        assertThat(IgnoreRules.compile(List.of("*.TXT"), true).excludes("", "a.txt", false)).isTrue();
        assertThat(IgnoreRules.compile(List.of("*.TXT"), false).excludes("", "a.txt", false)).isFalse();
    }

    /** What a walk keeps: an entry the rules exclude is left out with everything below it. */
    private static Map<String, String> keptBy(IgnoreRules rules, Map<String, String> onDisk) {
        Map<String, String> kept = new TreeMap<>();
        for (Map.Entry<String, String> e : onDisk.entrySet()) {
            boolean out = false;
            String path = e.getKey();
            while (!out && path != null) {
                int slash = path.lastIndexOf('/');
                String parent = slash < 0 ? "" : path.substring(0, slash);
                out = rules.excludes(parent, path.substring(slash + 1), onDisk.get(path).startsWith("DIRECTORY"));
                path = slash < 0 ? null : parent;
            }
            if (!out) {
                kept.put(e.getKey(), e.getValue());
            }
        }
        return kept;
    }
}
