package io.fsindex.testkit;

import static io.fsindex.testkit.DiskWalk.walkSize;
import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.DirectorySize;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanOptions;
import io.fsindex.core.DialectChoices;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sizes of directories ({@code directorySize}, {@code largestSubdirectories}) add up what an independent walk of
 * the disk counts, after scans and rescans, through the writable index and the read-only reader alike, whichever
 * way they are summed: a directory's walk, or the whole table for a directory that holds every row but its
 * ancestors, which another root scanned into the same index must not change.
 */
public abstract class SizeConformanceTest extends IndexTest {
    /** The whole-table sum's guard, a common table expression with a column named {@code sole}. */
    private static final Pattern WHOLE_TABLE_SUM = Pattern.compile("\\bsole\\b");

    @Test
    void directorySizesAddUpWhatAWalkFinds() throws IOException {
        Path root = QueryTrees.random(tree(), new Random(7), 150);
        FsIndex index = openIndex();
        index.scan(root);
        Trees.create(root, "later/", "later/new.bin", "later/empty/");
        Files.write(root.resolve("d0/grown.bin"), new byte[5000]);
        index.scan(root);

        for (IndexReader read : readers(index)) {
            for (Path dir : List.of(root, root.resolve("d0"), root.resolve("d1"), root.resolve("later"),
                    root.resolve("later/empty"))) {
                DirectorySize s = read.directorySize(dir).orElseThrow();
                assertThat(new long[] {s.bytes(), s.files(), s.directories()}).as(dir.toString())
                        .containsExactly(walkSize(dir));
                assertThat(s.path()).isEqualTo(dir);
            }
            List<DirectorySize> largest = read.largestSubdirectories(root, 3);
            List<Path> expected;
            try (Stream<Path> children = Files.list(root)) {
                expected = children.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                        .sorted(Comparator.comparingLong((Path p) -> -walkSize(p)[0])).limit(3).toList();
            }
            assertThat(largest).extracting(DirectorySize::bytes)
                    .containsExactlyElementsOf(expected.stream().map(p -> walkSize(p)[0]).toList());
            largest.forEach(s -> assertThat(walkSize(s.path())[0]).isEqualTo(s.bytes()));
            assertThat(read.largestSubdirectories(root.resolve("later"), 5)).extracting(DirectorySize::path)
                    .containsExactly(root.resolve("later/empty"));
            assertThat(read.directorySize(root.resolve("a.txt"))).isEmpty();
            assertThat(read.directorySize(root.resolve("nope"))).isEmpty();
        }
    }

    @Test
    void aRootsSizeCountsWhatLiesBelowItAndNoOtherRoots() throws IOException {
        // The size of a directory holding every live row but its ancestors is summed over the whole table: a second
        // root scanned into the index, and the rows it leaves behind when it goes, must not be counted in it.
        Path root = tree("a/", "a/deep/");
        Files.write(root.resolve("a/x.bin"), new byte[700]);
        Files.write(root.resolve("a/deep/y.bin"), new byte[50]);
        Trees.create(tmp.resolve("other"), "b/", "b/c/");
        Path other = tmp.resolve("other").toRealPath();
        Files.write(other.resolve("b/z.bin"), new byte[9000]);
        FsIndex index = openIndex();
        index.scan(root);
        assertSizesAsTheDisk(index, root, root.resolve("a"));
        index.scan(other);
        assertSizesAsTheDisk(index, root, root.resolve("a"), other, other.resolve("b"));
        Trees.delete(other.resolve("b"));
        index.scan(other);
        assertSizesAsTheDisk(index, root, other);
        Trees.delete(other);
        index.scan(other, ScanOptions.defaults().withRemoveMissingRoot(true));
        Files.write(root.resolve("a/deep/w.bin"), new byte[3]);
        index.scan(root);
        assertSizesAsTheDisk(index, root, root.resolve("a"));
    }

    @Test
    void aSoleRootsSizeIsSummedTheWayTheDialectChose() throws IOException {
        // Both ways give the same size; which statement runs is the dialect's choice for speed, and it must hold.
        Path root = QueryTrees.random(tree(), new Random(11), 60);
        RecordingDataSource recording = new RecordingDataSource(database());
        FsIndex index = track(recording.builder(TestDatabase.freshPrefix()).build());
        index.scan(root);
        recording.forget();
        DirectorySize s = index.directorySize(root).orElseThrow();
        assertThat(new long[] {s.bytes(), s.files(), s.directories()}).containsExactly(walkSize(root));
        boolean summedInOnePass = recording.prepared().stream().anyMatch(WHOLE_TABLE_SUM.asPredicate());
        assertThat(summedInOnePass).as("the whole-table sum ran; statements: %s", recording.prepared())
                .isEqualTo(DialectChoices.sumsSoleSubtreesInOnePass(database().jdbcUrl()));
    }

    private void assertSizesAsTheDisk(FsIndex index, Path... dirs) {
        for (IndexReader read : readers(index)) {
            for (Path dir : dirs) {
                DirectorySize s = read.directorySize(dir).orElseThrow();
                assertThat(new long[] {s.bytes(), s.files(), s.directories()}).as(dir.toString())
                        .containsExactly(walkSize(dir));
            }
        }
    }
}
