package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanOptions;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Duplicates by content hash, and by fingerprint among files without one, equal a grouping computed independently
 * from the files on disk (SHA-256 and the fingerprint computed in the test, not by the library), on random trees
 * scanned partly with content hashes and partly with fingerprints only, after rescans with churn.
 */
public abstract class DuplicateConformanceTest extends IndexTest {
    private static final ScanOptions FINGERPRINTS = ScanOptions.defaults()
            .withContentHashing(ContentHashing.FINGERPRINT);
    private static final ScanOptions FULL = ScanOptions.defaults().withContentHashing(ContentHashing.FULL);
    /** Larger than the fingerprint's two 64 KiB blocks, so contents differing in the middle share a fingerprint. */
    private static final int LARGE = 200 * 1024;

    /** A group as the test computes it: its size, its key ({@code H:} hash or {@code F:} fingerprint), its paths. */
    private record Expected(long size, String key, TreeSet<Path> paths) {
        long wasted() {
            return size * (paths.size() - 1L);
        }
    }

    @Test
    void groupsEqualAnIndependentGroupingOfTheFilesOnDisk() throws Exception {
        Path root = tree("hashed/", "printed/", "printed/deep/", "hashed/deep/");
        Random random = new Random(24);
        List<byte[]> contents = contents(random);
        write(root, random, contents, 0);
        FsIndex index = openIndex();
        for (int round = 1; round <= 3; round++) {
            index.scan(root, FINGERPRINTS);
            index.scan(root.resolve("hashed"), FULL);
            try (IndexReader reader = database().builder(prefix()).buildReader()) {
                for (IndexReader read : List.of(index, reader)) {
                    for (Path under : new Path[] {null, root.resolve("printed"), root.resolve("hashed/deep")}) {
                        List<Expected> expected = expected(root, under);
                        assertThat(expected).as("the tree has groups of both kinds").isNotEmpty();
                        assertThat(described(read.duplicates(under, 1000))).as("round %d below %s", round, under)
                                .isEqualTo(described(expected));
                        assertThat(described(read.duplicates(under, 2)))
                                .isEqualTo(described(expected.subList(0, Math.min(2, expected.size()))));
                    }
                }
            }
            write(root, random, contents, round);    // churn: some files rewritten, some deleted, some added
        }
    }

    /** Contents of a few sizes, several per size, and large ones that differ only between their first and last blocks. */
    private static List<byte[]> contents(Random random) {
        List<byte[]> out = new ArrayList<>();
        for (int size : new int[] {0, 1, 17, 4096, 70_000}) {
            for (int k = 0; k < 3; k++) {
                byte[] b = new byte[size];
                random.nextBytes(b);
                out.add(b);
            }
        }
        byte[] large = new byte[LARGE];
        random.nextBytes(large);
        for (int k = 0; k < 3; k++) {
            byte[] b = large.clone();
            b[LARGE / 2] = (byte) k;    // same size, first and last 64 KiB: one fingerprint, three hashes
            out.add(b);
        }
        return out;
    }

    /** Writes, rewrites or deletes files named by round in both halves of the tree, contents drawn from the pool. */
    private static void write(Path root, Random random, List<byte[]> contents, int round) throws Exception {
        for (String dir : List.of("hashed", "hashed/deep", "printed", "printed/deep")) {
            for (int i = 0; i < 12; i++) {
                Path f = root.resolve(dir).resolve("f" + i);
                if (round > 0 && random.nextInt(4) == 0) {
                    Files.deleteIfExists(f);
                } else if (round == 0 || random.nextInt(3) == 0) {
                    Files.write(f, contents.get(random.nextInt(contents.size())));
                }
            }
        }
    }

    /**
     * The groups from the disk: a file below {@code hashed} (scanned with content hashes) keyed by its SHA-256, any
     * other by its fingerprint; groups of two or more, most waste first, then by key, a hash before a fingerprint,
     * then by size.
     */
    private static List<Expected> expected(Path root, Path under) throws Exception {
        Map<String, Expected> groups = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> all = Files.walk(under == null ? root : under)) {
            files = all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
        }
        for (Path f : files) {
            byte[] content = Files.readAllBytes(f);
            boolean hashed = f.startsWith(root.resolve("hashed"));
            String key = hashed ? "H:" + ContentConformanceTest.sha256(content)
                    : "F:" + ContentConformanceTest.fingerprint(content);
            groups.computeIfAbsent(content.length + "/" + key, k -> new Expected(content.length, key, new TreeSet<>()))
                    .paths().add(f);
        }
        return groups.values().stream().filter(g -> g.paths().size() > 1)
                .sorted(Comparator.comparingLong(Expected::wasted).reversed()
                        .thenComparing(g -> g.key().substring(2))
                        .thenComparing(g -> g.key().startsWith("F:"))
                        .thenComparingLong(Expected::size))
                .toList();
    }

    private static List<String> described(List<?> groups) {
        List<String> out = new ArrayList<>();
        for (Object o : groups) {
            if (o instanceof Expected e) {
                out.add(e.size() + " " + e.key() + " " + e.paths());
            } else {
                DuplicateGroup g = (DuplicateGroup) o;
                TreeSet<Path> paths = new TreeSet<>();
                g.files().stream().map(FileEntry::path).forEach(paths::add);
                assertThat(g.files()).extracting(FileEntry::size).containsOnly(g.size());
                out.add(g.size() + " " + (g.sameContent() ? "H:" + g.contentHash() : "F:" + g.fingerprint()) + " "
                        + paths);
            }
        }
        return out;
    }
}
