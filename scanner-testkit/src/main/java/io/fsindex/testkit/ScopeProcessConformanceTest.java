package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScopeException;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Rules stored with the index hold across processes: separate JVMs ({@link ChildJvm}) scanning overlapping paths of
 * one root while the tree changes never record what the stored rules exclude, and the index ends as git
 * ({@link GitIgnoreOracle}) filters the tree; two JVMs bringing a root's first rules at once either agree, or one
 * stores its rules and the other is refused with a {@link ScopeException}.
 */
public abstract class ScopeProcessConformanceTest extends IndexTest {
    /**
     * Rules that meet the names {@link TreeChurn} and {@link RandomScopes} make. None ends in {@code /}: the check
     * of the change feed asks git about paths gone from disk, which it cannot tell directories from files by.
     */
    private static final List<String> RULES = List.of("f1", "*.txt", "!/grows.txt", "/sub/flip", "d*/sub", "b",
            "**/n?/ab");
    private static final List<String> OTHER_RULES = List.of("*.log", "a");
    private static final int SCANS_PER_CHILD = 5;

    private Path gitDir() {
        return tmp.resolve("git-" + System.nanoTime());
    }

    /**
     * One JVM scans the root and another a subtree of it, again and again, while this one changes the tree. No scan
     * may fail or record an entry the rules exclude, and after one more scan the index is the tree as git filters it.
     */
    @Test
    void twoProcessesScanningOverlappingPathsWhileTheTreeChangesConverge() throws Exception {
        Random random = new Random(21);
        Path root = Trees.realDirectory(tmp.resolve("shared"));
        Trees.create(root, RandomScopes.tree(random, 50, 3).toArray(String[]::new));
        Trees.create(root, "sub/");
        Trees.create(root.resolve("sub"), RandomScopes.tree(random, 30, 3).toArray(String[]::new));
        FsIndex index = openIndex();
        index.setScope(root, ScanScope.defaults().withExcludes(RULES));

        ChildJvm children = new ChildJvm(Files.createDirectories(tmp.resolve("children")),
                database().properties(prefix()));
        TreeChurn churn = new TreeChurn(root, List.of("", "sub"));
        try {
            children.start("root", root, SCANS_PER_CHILD);
            children.start("sub", root.resolve("sub"), SCANS_PER_CHILD);
            children.releaseWhenAllReady();
            children.churnUntilAllSucceed(churn);
        } finally {
            children.destroyAll();
        }
        assertThat(churn.steps()).as("the tree changed while the children scanned").isPositive();

        index.scan(root);
        assertThat(Trees.inIndex(index, root)).isEqualTo(GitIgnoreOracle.kept(root, RULES, false, gitDir()));
        RawIndex raw = new RawIndex(database(), prefix());
        assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}scans WHERE state = 'COMPLETED'"))
                .isEqualTo(2 * SCANS_PER_CHILD + 1);
        assertThat(raw.orphans()).isZero();
        assertThat(raw.staleRows()).isZero();
        Set<String> recorded = recordedBelow(index, root);
        assertThat(recorded).as("the change feed saw the churn").isNotEmpty();
        assertThat(GitIgnoreOracle.excluded(root, recorded, RULES, false, gitDir()))
                .as("entries some scan recorded although the stored rules exclude them")
                .isEmpty();
    }

    /** Two JVMs bring the same rules for a root with none stored: both scan, and the rules are stored once. */
    @Test
    void twoProcessesBringingTheSameFirstRulesBothScan() throws Exception {
        Path root = tree("x.txt", "keep/f1", "keep/f2", "b/inner.log", "grows.txt");
        FsIndex index = openIndex();
        ChildJvm children = new ChildJvm(Files.createDirectories(tmp.resolve("same")),
                database().properties(prefix()));
        try {
            children.start("one", root, 1, RULES);
            children.start("two", root, 1, RULES);
            children.releaseWhenAllReady();
            children.assertAllSucceed();
        } finally {
            children.destroyAll();
        }
        assertThat(index.scopes()).containsOnlyKeys(root);
        assertThat(index.scope(root)).contains(ScanScope.defaults().withExcludes(RULES));
        assertThat(Trees.inIndex(index, root)).isEqualTo(GitIgnoreOracle.kept(root, RULES, false, gitDir()));
    }

    /**
     * Two pairs of JVMs, each pair bringing different rules for a root with none stored: in each pair, exactly one
     * scans and stores its rules, the other is refused with a {@link ScopeException} that says so, and the index
     * holds the tree as the stored rules filter it.
     */
    @Test
    void twoProcessesBringingDifferentFirstRulesOneWinsTheOtherIsRefused() throws Exception {
        FsIndex index = openIndex();
        ChildJvm children = new ChildJvm(Files.createDirectories(tmp.resolve("children")),
                database().properties(prefix()));
        List<Path> roots = List.of(Trees.realDirectory(tmp.resolve("pair0")),
                Trees.realDirectory(tmp.resolve("pair1")));
        int[] exits = new int[4];
        try {
            for (int pair = 0; pair < 2; pair++) {
                Trees.create(roots.get(pair), "x.txt", "a/f1", "a/y.log", "keep/f2", "keep/z.log", "b/inner.txt",
                        "grows.txt");
                children.start("one" + pair, roots.get(pair), 1, RULES);
                children.start("other" + pair, roots.get(pair), 1, OTHER_RULES);
            }
            children.releaseWhenAllReady();
            for (int pair = 0; pair < 2; pair++) {
                exits[2 * pair] = children.awaitExit("one" + pair);
                exits[2 * pair + 1] = children.awaitExit("other" + pair);
            }
        } finally {
            children.destroyAll();
        }
        for (int pair = 0; pair < 2; pair++) {
            Path root = roots.get(pair);
            String outputs = "pair " + pair + ", one: " + children.output("one" + pair) + "\nother: "
                    + children.output("other" + pair);
            assertThat(new int[] {exits[2 * pair], exits[2 * pair + 1]}).as(outputs)
                    .containsExactlyInAnyOrder(0, ScanChildProcess.REFUSED);
            boolean oneWon = exits[2 * pair] == 0;
            List<String> stored = oneWon ? RULES : OTHER_RULES;
            List<String> refused = oneWon ? OTHER_RULES : RULES;
            assertThat(children.output((oneWon ? "other" : "one") + pair)).as(outputs)
                    .startsWith("refused ").contains(root.toString()).contains("nothing was scanned");

            assertThat(index.scope(root)).as(outputs).contains(ScanScope.defaults().withExcludes(stored));
            Map<String, String> kept = GitIgnoreOracle.kept(root, stored, false, gitDir());
            assertThat(Trees.inIndex(index, root)).as(outputs).isEqualTo(kept);
            assertThatThrownBy(() -> index.scan(root, ScanOptions.defaults()
                    .withScope(ScanScope.defaults().withExcludes(refused))))
                    .isInstanceOf(ScopeException.class);
            index.scan(root);
            assertThat(Trees.inIndex(index, root)).as(outputs).isEqualTo(kept);
        }
        assertThat(new RawIndex(database(), prefix()).staleRows()).isZero();
    }

    /** The paths below {@code root}, relative to it, that the change feed shows some scan recording. */
    private static Set<String> recordedBelow(FsIndex index, Path root) {
        Set<String> recorded = new TreeSet<>();
        long cursor = 0;
        while (true) {
            ChangeBatch batch = index.changesSince(cursor, 10_000);
            assertThat(batch.resyncNeeded()).isFalse();
            if (batch.changes().isEmpty()) {
                return recorded;
            }
            for (Change c : batch.changes()) {
                if (c.type() != ChangeType.DELETED && c.path().startsWith(root) && !c.path().equals(root)) {
                    recorded.add(root.relativize(c.path()).toString());
                }
            }
            cursor = batch.nextCursor();
        }
    }
}
