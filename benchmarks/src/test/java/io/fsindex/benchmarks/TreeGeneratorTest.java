package io.fsindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeGeneratorTest {
    private static final TreeGenerator.Shape SHAPE = TreeGenerator.Shape.of(3_000, 7);

    @TempDir
    Path tmp;

    @Test
    void theSameShapeAndSeedGiveTheSameTreeWhateverTheThreadCount() throws IOException {
        new TreeGenerator(SHAPE).generate(tmp.resolve("a"), 1);
        new TreeGenerator(SHAPE).generate(tmp.resolve("b"), 3);
        new TreeGenerator(new TreeGenerator.Shape(3_000, 6, 50, 4, 6, 8, 24, 4, 8)).generate(tmp.resolve("c"), 1);

        assertThat(listing(tmp.resolve("a"))).isEqualTo(listing(tmp.resolve("b")));
        assertThat(listing(tmp.resolve("a"))).isNotEqualTo(listing(tmp.resolve("c")));
    }

    @Test
    void theTreeHasExactlyTheEntriesAskedForWithinTheFanOutAndDepthBounds() throws IOException {
        TreeGenerator generator = new TreeGenerator(SHAPE.withEntries(5_000));
        Path root = tmp.resolve("t");
        TreeGenerator.Stats stats = generator.generate(root, 2);

        List<String> listing = listing(root);
        assertThat(listing).hasSize(5_000);
        assertThat(stats.entries()).isEqualTo(5_000);
        Map<Path, Integer> filesPerDirectory = new HashMap<>();
        Map<Path, Integer> subdirectoriesPerDirectory = new HashMap<>();
        filesPerDirectory.put(root, 0);
        subdirectoriesPerDirectory.put(root, 0);
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.skip(1)::iterator) {
                if (Files.isDirectory(p)) {
                    filesPerDirectory.putIfAbsent(p, 0);
                    subdirectoriesPerDirectory.putIfAbsent(p, 0);
                    subdirectoriesPerDirectory.merge(p.getParent(), 1, Integer::sum);
                } else {
                    filesPerDirectory.merge(p.getParent(), 1, Integer::sum);
                }
                assertThat(p.getFileName().toString().length()).isBetween(8, 24);
            }
        }
        assertThat(filesPerDirectory.values()).allSatisfy(n -> assertThat(n).isBetween(6, 50));
        subdirectoriesPerDirectory.forEach((dir, subdirectories) -> {
            if (subdirectories == 0) {
                assertThat(root.relativize(dir).getNameCount()).as("depth of leaf %s", dir).isBetween(4, 6);
            }
        });
        assertThat(subdirectoriesPerDirectory.get(root)).isEqualTo(4);
        for (Path quarter : generator.topLevelDirectories(root)) { // so that partial scans of them are comparable
            try (Stream<Path> s = Files.walk(quarter)) {
                assertThat(s.count()).as("entries in %s", quarter).isBetween(5_000 / 4 * 8 / 10L, 5_000 / 4 * 12 / 10L);
            }
        }
    }

    @Test
    void churnChangesTheShareOfFilesTheIssueNamesAndRenamesOneDirectory() throws IOException {
        TreeGenerator generator = new TreeGenerator(SHAPE.withEntries(10_000));
        Path root = tmp.resolve("t");
        generator.generate(root, 2);
        List<String> before = listing(root);

        TreeGenerator.Churn churn = generator.churn(root, 0);

        long files = generator.files();
        assertThat(churn.modified()).isEqualTo(Math.round(files * 0.01));
        assertThat(churn.deleted()).isEqualTo(Math.round(files * 0.001));
        assertThat(churn.added()).isEqualTo(Math.round(files * 0.001));
        assertThat(churn.renamedFrom()).doesNotExist();
        assertThat(churn.renamedTo()).isDirectory();
        assertThat(root.relativize(churn.renamedFrom()).getNameCount()).isGreaterThanOrEqualTo(2);
        List<String> after = listing(root);
        assertThat(after).hasSize(before.size() - (int) churn.deleted() + (int) churn.added());
        long sized = after.stream().filter(line -> !line.endsWith("\t0") && line.contains("\tf\t")).count();
        assertThat(sized).isEqualTo(churn.modified());
        long moved = after.stream().filter(line -> line.startsWith(root.relativize(churn.renamedTo()) + "/")).count();
        assertThat(moved).isEqualTo(churn.renamedEntries());

        TreeGenerator.Churn again = generator.churn(root, 1);
        assertThat(again.renamedTo()).isDirectory();
        assertThat(again.modified() + again.deleted()).isGreaterThan(0);
    }

    @Test
    void aFlatDirectoryHoldsExactlyTheFilesAskedForTheSameEachTime() throws IOException {
        TreeGenerator.generateFlat(tmp.resolve("a"), 1_000, SHAPE);
        TreeGenerator.generateFlat(tmp.resolve("b"), 1_000, SHAPE);

        assertThat(listing(tmp.resolve("a"))).hasSize(1_000).isEqualTo(listing(tmp.resolve("b")));
    }

    /** Every entry below root as "relative path, kind, size" (for directories: no size), sorted. */
    private static List<String> listing(Path root) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.skip(1)::iterator) {
                boolean dir = Files.isDirectory(p);
                lines.add(root.relativize(p) + "\t" + (dir ? "d" : "f") + "\t" + (dir ? 0 : Files.size(p)));
            }
        }
        lines.sort(null);
        return lines;
    }
}
