package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScopeException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import io.fsindex.core.internal.IndexInternals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Scoped scans on a real database: exclude patterns, stored with the index, give the index exactly the tree git
 * would keep ({@link GitIgnoreOracle}, an independent implementation) after scans, rescans, subtree scans and rule
 * changes, and concurrent scanners converge on it; depth limits; a scan given other rules than the stored ones is
 * refused; an index at schema version 4 is upgraded. Mount points: {@link ScopeMountConformanceTest}.
 */
public abstract class ScopeConformanceTest extends IndexTest {

    private Map<String, String> oracle(Path tree, List<String> patterns, boolean ignoreCase) {
        return GitIgnoreOracle.kept(tree, patterns, ignoreCase, tmp.resolve("git-" + System.nanoTime()));
    }

    @Test
    void excludedEntriesAreLeftOutAndTheStoredRulesApplyToEveryLaterScan() {
        FsIndex index = openIndex();
        Path root = tree("src/a.java", "src/node_modules/x/y.js", "node_modules/z.js", "build/out.bin", "b.tmp",
                "keep.tmp", "docs/");
        ScanScope rules = ScanScope.defaults().withExcludes("node_modules/", "/build", "*.tmp", "!keep.tmp");
        index.scan(root, ScanOptions.defaults().withScope(rules));
        assertThat(Trees.inIndex(index, root).keySet())
                .containsExactlyInAnyOrder("src", "src/a.java", "keep.tmp", "docs");
        assertThat(index.scope(root)).contains(rules);
        assertThat(index.scopes()).containsOnlyKeys(root);

        Trees.create(root, "src/node_modules/new.js", "src/c.tmp", "src/d.java");
        index.scan(root.resolve("src"));                          // a subtree scan applies the root's rules
        index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet())
                .containsExactlyInAnyOrder("src", "src/a.java", "src/d.java", "keep.tmp", "docs");

        assertThatThrownBy(() -> index.scan(root, ScanOptions.defaults().withScope(rules.withExcludes("*.java"))))
                .isInstanceOf(ScopeException.class)
                .hasMessageContaining("differ from those stored for " + root);
        assertThatThrownBy(() -> index.scan(root.resolve("src/node_modules")))
                .isInstanceOf(ScopeException.class)
                .hasMessageContaining("exclude " + root.resolve("src/node_modules"));
        index.scan(root, ScanOptions.defaults().withScope(rules));   // the same rules again: fine
    }

    @Test
    void changedRulesRemoveWhatBecameExcludedAsDeletedAndAddWhatBecameIncluded() {
        FsIndex index = openIndex();
        Path root = tree("a/1.txt", "a/2.log", "b/3.txt", "c.log");
        index.setScope(root, ScanScope.defaults().withExcludes("*.log"));
        index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet()).containsExactlyInAnyOrder("a", "a/1.txt", "b", "b/3.txt");

        long cursor = index.changeFeedEnd();
        index.setScope(root, ScanScope.defaults().withExcludes("b/"));
        ScanResult r = index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet())
                .containsExactlyInAnyOrder("a", "a/1.txt", "a/2.log", "c.log");
        Map<Path, ChangeType> feed = new TreeMap<>();
        for (Change c : index.changesSince(cursor, 1000).changes()) {
            feed.put(c.path(), c.type());
        }
        assertThat(feed).containsEntry(root.resolve("b"), ChangeType.DELETED)
                .containsEntry(root.resolve("a/2.log"), ChangeType.ADDED)
                .containsEntry(root.resolve("c.log"), ChangeType.ADDED);
        assertThat(r.added()).isEqualTo(2);

        index.setScope(root, null);
        index.scan(root);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(index.scopes()).isEmpty();
    }

    /** A root with rules of its own inside another root's tree follows its own rules, whichever root is scanned. */
    @Test
    void theNearestRootWithRulesWins() {
        FsIndex index = openIndex();
        Path root = tree("a.log", "a.txt", "inner/b.log", "inner/c.txt", "inner/d/e.txt");
        index.setScope(root, ScanScope.defaults().withExcludes("*.log"));
        index.setScope(root.resolve("inner"), ScanScope.defaults().withExcludes("*.txt"));
        index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet())
                .containsExactlyInAnyOrder("a.txt", "inner", "inner/b.log", "inner/d");
        index.scan(root.resolve("inner/d"));
        index.scan(root.resolve("inner"));
        assertThat(Trees.inIndex(index, root).keySet())
                .containsExactlyInAnyOrder("a.txt", "inner", "inner/b.log", "inner/d");
    }

    /** A directory listed in parts (a huge one) loses the rows of entries the rules now exclude too. */
    @Test
    void aDirectoryListedInPartsLosesTheRowsOfWhatBecameExcluded() {
        FsIndex index = openIndex();
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            files.add("big/f" + i + (i % 4 == 0 ? ".tmp" : ".txt"));
        }
        Path root = tree(files.toArray(String[]::new));
        IndexInternals.of(index).listingPartEntries(7);
        index.scan(root);
        assertThat(Trees.inIndex(index, root)).hasSize(41);
        index.setScope(root, ScanScope.defaults().withExcludes("*.tmp"));
        ScanResult r = index.scan(root);
        assertThat(r.deleted()).isEqualTo(10);
        assertThat(Trees.inIndex(index, root)).hasSize(31).doesNotContainKey("big/f0.tmp");
    }

    @Test
    void maxDepthRecordsTheDeepestLevelButListsNothingBelowIt() {
        FsIndex index = openIndex();
        Path root = tree("1/2/3/4.txt", "1/f.txt", "top.txt");
        index.scan(root, ScanOptions.defaults().withScope(ScanScope.defaults().withMaxDepth(2)));
        assertThat(Trees.inIndex(index, root).keySet()).containsExactlyInAnyOrder("1", "1/2", "1/f.txt", "top.txt");
        index.setScope(root, ScanScope.defaults().withMaxDepth(1));
        index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet()).containsExactlyInAnyOrder("1", "top.txt");
        assertThatThrownBy(() -> index.scan(root.resolve("1/2"))).isInstanceOf(ScopeException.class);
    }

    /**
     * The property: random trees and random pattern sets (with and without case folding); after a scan, a rescan of a
     * changed tree, a subtree scan and a change of the rules, the index holds exactly what git keeps.
     */
    @Test
    void randomTreesAndPatternsGiveWhatGitKeeps() {
        FsIndex index = openIndex();
        for (int round = 0; round < 8; round++) {
            long seed = 1_000_003L * round + 11;
            Random random = new Random(seed);
            Path root = Trees.realDirectory(tmp.resolve("round" + round));
            Trees.create(root, RandomScopes.tree(random, 30, 3).toArray(String[]::new));
            List<String> patterns = RandomScopes.patterns(random, 1 + random.nextInt(5));
            boolean ignoreCase = random.nextInt(3) == 0;
            String what = "seed " + seed + ", patterns " + patterns + ", ignoreCase " + ignoreCase;
            ScanScope rules = ScanScope.defaults().withExcludes(patterns).withIgnoreCase(ignoreCase);

            index.scan(root, ScanOptions.defaults().withScope(rules));
            assertThat(Trees.inIndex(index, root)).as("first scan, " + what)
                    .isEqualTo(oracle(root, patterns, ignoreCase));

            churn(root, random);
            index.scan(root);
            Map<String, String> kept = oracle(root, patterns, ignoreCase);
            assertThat(Trees.inIndex(index, root)).as("rescan, " + what).isEqualTo(kept);

            List<String> keptDirectories = kept.entrySet().stream().filter(e -> e.getValue().equals("DIRECTORY"))
                    .map(Map.Entry::getKey).toList();
            if (!keptDirectories.isEmpty()) {
                churn(root.resolve(keptDirectories.get(random.nextInt(keptDirectories.size()))), random);
                index.scan(root.resolve(keptDirectories.get(0)));
                index.scan(root);
                kept = oracle(root, patterns, ignoreCase);
                assertThat(Trees.inIndex(index, root)).as("subtree scans, " + what).isEqualTo(kept);
            }

            List<String> changed = RandomScopes.patterns(random, 1 + random.nextInt(5));
            long cursor = index.changeFeedEnd();
            index.setScope(root, ScanScope.defaults().withExcludes(changed).withIgnoreCase(ignoreCase));
            index.scan(root);
            Map<String, String> now = oracle(root, changed, ignoreCase);
            assertThat(Trees.inIndex(index, root)).as("rules changed to " + changed + ", " + what).isEqualTo(now);
            Set<Path> deleted = new TreeSet<>();
            for (Change c : index.changesSince(cursor, 100_000).changes()) {
                if (c.type() == ChangeType.DELETED) {
                    deleted.add(c.path());
                }
            }
            for (String gone : kept.keySet()) {
                if (!now.containsKey(gone) && !now.containsKey(parentOf(gone))) {
                    assertThat(deleted).as("%s left the index as DELETED, %s", gone, what)
                            .contains(root.resolve(gone));
                }
            }
        }
    }

    /**
     * Two scanners (separate handles, as separate processes would be) scan overlapping paths of a root with stored
     * rules while the tree changes; once the changes stop, a last scan of each leaves exactly what git keeps.
     */
    @Test
    void concurrentScannersOnOverlappingPathsConverge() throws Exception {
        FsIndex one = openIndex();
        FsIndex two = track(database().builder(prefix()).build());
        Random random = new Random(42);
        Path root = Trees.realDirectory(tmp.resolve("shared"));
        Trees.create(root, RandomScopes.tree(random, 60, 3).toArray(String[]::new));
        Trees.create(root, "sub/");
        List<String> patterns = List.of("*.txt", "!x.txt", "b/", "/sub/a*", "**/n?/ab");
        one.setScope(root, ScanScope.defaults().withExcludes(patterns));
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> a = pool.submit(() -> loop(one, root, stop));
            Future<?> b = pool.submit(() -> loop(two, root.resolve("sub"), stop));
            for (int i = 0; i < 20; i++) {
                churn(root, random);
                churn(root.resolve("sub"), random);
                Thread.sleep(20);
            }
            stop.set(true);
            a.get(2, TimeUnit.MINUTES);
            b.get(2, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        two.scan(root.resolve("sub"));
        one.scan(root);
        assertThat(Trees.inIndex(one, root)).isEqualTo(oracle(root, patterns, false));
        assertThat(Trees.inIndex(two, root)).isEqualTo(oracle(root, patterns, false));
    }

    /** An index left at schema version 4 is upgraded, keeps its rows, and stores rules from then on. */
    @Test
    void aVersion4IndexIsUpgradedAndStoresRules() throws Exception {
        RawIndex raw = indexAtSchemaVersion(4);
        raw.update("INSERT INTO ${prefix}scans (root, state, started_at, heartbeat_at) VALUES ('/old', 'COMPLETED',"
                + " 1, 1)");
        FsIndex index = reopenIndex();
        assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaScripts.currentVersion());
        assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}scans")).isEqualTo(1);
        Path root = tree("a.log", "b.txt");
        index.setScope(root, ScanScope.defaults().withExcludes("*.log"));
        index.scan(root);
        assertThat(Trees.inIndex(index, root).keySet()).containsExactly("b.txt");
        assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}scopes WHERE rules IS NOT NULL")).isEqualTo(1);
    }

    private static void loop(FsIndex index, Path root, AtomicBoolean stop) {
        while (!stop.get()) {
            try {
                index.scan(root);
            } catch (RuntimeException e) {
                // A scan whose root vanished under the churn fails; the next one goes on.
                if (!(e instanceof io.fsindex.api.ScanFailedException)) {
                    throw e;
                }
            }
        }
    }

    /** Adds and deletes a few random entries below {@code dir}. */
    static void churn(Path dir, Random random) {
        for (String p : RandomScopes.tree(random, 4, 2)) {
            try {
                Trees.create(dir, p);
            } catch (UncheckedIOException clash) {
                // a file where the new path needs a directory, or the reverse: leave it
            }
        }
        try (var s = Files.list(dir)) {
            List<Path> children = new ArrayList<>(s.sorted().toList());
            if (!children.isEmpty() && random.nextBoolean()) {
                Trees.delete(children.get(random.nextInt(children.size())));
            }
        } catch (IOException | UncheckedIOException gone) {
            // deleted by another churn meanwhile
        }
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }
}
