package io.fsindex.testkit;

import static io.fsindex.testkit.DiskWalk.isFile;
import static io.fsindex.testkit.DiskWalk.size;
import static io.fsindex.testkit.DiskWalk.walk;
import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A find below a directory answers what the disk holds whichever way it reaches the rows: below a directory holding
 * everything the index has but its own ancestors (one scanned root, or a directory above it) it reads the whole
 * table and checks each row's ancestry, with no walk; below one of two scanned roots it walks that root. Both keep
 * the pagination rule while a scan changes the index between pages.
 */
public abstract class FindReachConformanceTest extends IndexTest {
    private static final FileQuery SMALL_FILES = FileQuery.any().withKind(FileKind.FILE).withSize(10L, 40L);

    @Test
    void findsBelowOneOfTwoRootsLeaveTheOtherOutAndFindAboveThemHoldsBoth() throws IOException {
        Path both = tree();
        Path a = randomTree(both.resolve("a"), new Random(1));
        Path b = randomTree(both.resolve("b"), new Random(2));
        FsIndex index = openIndex();
        index.scan(a);
        index.scan(b);

        for (IndexReader read : readers(index)) {
            for (Path under : List.of(a, b, both, a.resolve("d1"))) {
                assertFinds(read, SMALL_FILES.withUnder(under), under, e -> isFile(e) && size(e) >= 10 && size(e) <= 40);
                assertFinds(read, FileQuery.any().withUnder(under).withNameGlob("*.txt"), under,
                        e -> e.getFileName().toString().endsWith(".txt"));
                assertFinds(read, FileQuery.any().withUnder(under).withKind(FileKind.DIRECTORY), under,
                        e -> Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS));
            }
        }

        // b gone from the disk and from the index (its rows kept as orphans): a then holds every live row.
        Trees.delete(b);
        index.scan(both);
        for (IndexReader read : readers(index)) {
            assertFinds(read, SMALL_FILES.withUnder(a), a, e -> isFile(e) && size(e) >= 10 && size(e) <= 40);
            assertFinds(read, FileQuery.any().withUnder(both).withNameGlob("*.txt"), both,
                    e -> e.getFileName().toString().endsWith(".txt"));
        }
    }

    @Test
    void pagesBelowTheRootAndBelowOneOfItsDirectoriesReturnEveryMatchOnceWhileAScanChangesTheIndex()
            throws IOException {
        // Rule (README, "Queries"): an entry that matches throughout is returned exactly once; what a scan adds,
        // changes or moves out between pages is returned at most once; nothing is returned twice.
        // Below d1 a walk picks the ids of a few pages ahead: pages of one read them in several walks.
        record Case(String below, int pageSize) {
        }
        for (Case c : List.of(new Case("", 3), new Case("d1", 3), new Case("d1", 1))) {
            String below = c.below();
            Path root = randomTree(tmp.resolve("pages" + below.length() + "-" + c.pageSize()), new Random(3));
            FsIndex index = openIndex();
            index.scan(root);
            Path under = root.resolve(below);
            FileQuery query = SMALL_FILES.withUnder(under).withLimit(c.pageSize());
            FindPage first = index.find(query);
            assertThat(first.more()).isTrue();
            Set<Long> returned = new HashSet<>();
            first.entries().forEach(e -> returned.add(e.id()));

            List<Path> later = matchesOnDisk(under).stream()
                    .filter(p -> first.entries().stream().noneMatch(e -> e.path().equals(p))).toList();
            Path deleted = later.get(0);
            Path movedWithin = later.get(1);
            Path movedOut = later.get(2);
            Files.delete(deleted);
            Files.move(movedWithin, under.resolve("moved-within.bin"));
            Files.move(movedOut, root.resolve("d2").resolve("moved-out.bin"));
            Files.write(under.resolve("added.bin"), new byte[20]);
            index.scan(root);

            List<FileEntry> seen = withPagesAfter(first, query, index::find);
            assertThat(seen).extracting(FileEntry::id).doesNotHaveDuplicates().isSorted();
            Set<Path> paths = new TreeSet<>();
            seen.forEach(e -> paths.add(e.path()));
            // Below the root, the file moved to d2 is still below: it matches throughout, so it is returned too.
            Set<Path> throughout = new TreeSet<>(matchesOnDisk(under));
            throughout.remove(under.resolve("added.bin"));
            assertThat(paths).as(under.toString()).containsAll(throughout).doesNotContain(deleted, movedWithin, movedOut);
            assertThat(paths.contains(root.resolve("d2/moved-out.bin"))).isEqualTo(below.isEmpty());
            seen.forEach(e -> assertThat(e.path()).startsWith(under));
        }
    }

    @Test
    void aPageBelowADirectoryHoldsAMatchThatFewOfTheNamesSqlNarrowedToMatch() throws IOException {
        // Rule (FindPage): a page is short only when nothing after it matches. SQL narrows "y?.bin" to names holding
        // ".bin" and Java matches the rest, so the walk below d picks mostly names that fail: the page must read on.
        Path root = tmp.resolve("loose");
        Trees.create(root, "./", "d/", "e/", "e/y2.bin");     // e: d is not all of the index, so a find walks it
        for (int i = 0; i < 200; i++) {
            Files.write(root.resolve("d/x" + i + ".bin"), new byte[1]);
        }
        Files.write(root.resolve("d/y1.bin"), new byte[1]);
        FsIndex index = openIndex();
        index.scan(root.toRealPath());
        Path under = root.toRealPath().resolve("d");
        FindPage first = index.find(FileQuery.any().withUnder(under).withKind(FileKind.FILE).withNameGlob("y?.bin")
                .withLimit(1));
        assertThat(first.entries()).extracting(FileEntry::path).containsExactly(under.resolve("y1.bin"));
    }

    private void assertFinds(IndexReader read, FileQuery query, Path under, Predicate<Path> onDisk) {
        List<FileEntry> found = new ArrayList<>();
        FindPage page = read.find(query.withLimit(5));
        found.addAll(page.entries());
        while (page.more()) {
            page = read.find(query.withLimit(5).after(page.cursor()));
            found.addAll(page.entries());
        }
        assertThat(found).extracting(FileEntry::id).isSorted().doesNotHaveDuplicates();
        Set<Path> expected = new TreeSet<>();
        walk(under).stream().filter(p -> !p.equals(under)).filter(onDisk).forEach(expected::add);
        Set<Path> actual = new TreeSet<>();
        found.forEach(e -> actual.add(e.path()));
        assertThat(actual).as(query.toString()).isEqualTo(expected);
    }

    private static List<Path> matchesOnDisk(Path under) {
        return walk(under).stream().filter(p -> !p.equals(under))
                .filter(p -> isFile(p) && size(p) >= 10 && size(p) <= 40).sorted().toList();
    }

    /** Directories d0…d3 (d1 with a subdirectory) holding files of 0 to 59 bytes, a third of them {@code .txt}. */
    private static Path randomTree(Path root, Random random) throws IOException {
        Trees.create(root, "./");
        Trees.create(root, "d0/", "d1/", "d1/sub/", "d2/", "d3/");
        List<Path> dirs = new ArrayList<>(List.of(root.resolve("d0"), root.resolve("d1"), root.resolve("d1/sub"),
                root.resolve("d2"), root.resolve("d3")));
        for (int i = 0; i < 60; i++) {
            Path dir = dirs.get(random.nextInt(dirs.size()));
            Files.write(dir.resolve("f" + i + (i % 3 == 0 ? ".txt" : ".bin")), new byte[random.nextInt(60)]);
        }
        return root.toRealPath();
    }
}
