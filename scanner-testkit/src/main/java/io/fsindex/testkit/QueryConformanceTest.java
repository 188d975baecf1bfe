package io.fsindex.testkit;

import static io.fsindex.testkit.DiskWalk.kind;
import static io.fsindex.testkit.DiskWalk.mtime;
import static io.fsindex.testkit.DiskWalk.name;
import static io.fsindex.testkit.DiskWalk.size;
import static io.fsindex.testkit.DiskWalk.walk;
import static io.fsindex.testkit.DiskWalk.walkSize;
import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.DirectorySize;
import io.fsindex.api.DuplicateGroup;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileQuery;
import io.fsindex.api.FindPage;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanOptions;
import io.fsindex.core.FsIndex;
import io.fsindex.core.NameSearchProbe;
import io.fsindex.core.SchemaScripts;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Questions asked of the index (entries by id, pages of children, find, the sizes of large and upgraded subtrees,
 * duplicates) answer what an independent walk of the disk finds ({@link SizeConformanceTest} has the rest of sizes), through the writable index and the read-only reader alike, on a real database.
 */
public abstract class QueryConformanceTest extends IndexTest {
    private static final char NEWLINE = '\ue000';
    private static final ScanOptions FULL = ScanOptions.defaults().withContentHashing(ContentHashing.FULL);

    /**
     * Whether the indexes this suite opens keep the name search index ({@link FsIndex.Builder#nameSearchIndex});
     * a subclass returns true to run the whole suite with it, whose results must be the same as without.
     */
    protected boolean nameSearchIndex() {
        return false;
    }

    @Override
    protected FsIndex openIndex() {
        return openIndex(b -> b.nameSearchIndex(nameSearchIndex()));
    }

    @Test
    void nameSearchIndexIsThereWhileTheSettingIsOnAndDroppedWhenOff() throws Exception {
        Path root = tree();
        for (String n : QueryTrees.HOSTILE) {
            Files.writeString(root.resolve(n), n);
        }
        TestDatabase db = database();
        boolean engineHasOne = NameSearchProbe.engineHasOne(db.jdbcUrl());
        FsIndex on = openIndex(b -> b.nameSearchIndex(true));
        on.scan(root);
        assertThat(NameSearchProbe.present(db.jdbcUrl(), db.user(), db.password(), prefix()))
                .as("created on opening with the setting on").isEqualTo(engineHasOne);
        Trees.create(root, "added-percent%.txt");
        Trees.delete(root.resolve("percent%.txt"));
        Files.move(root.resolve("under_score.txt"), root.resolve("renamed_Score.txt"));
        on.scan(root);
        for (IndexReader read : readers(on)) {
            assertFinds(read, FileQuery.any().withNameContaining("CENT%"), root, e -> name(e).contains("cent%"));
            assertFinds(read, FileQuery.any().withNameContaining("score"), root,
                    e -> name(e).toLowerCase(Locale.ROOT).contains("score"));
        }
        on.close();

        FsIndex off = track(db.builder(prefix()).nameSearchIndex(false).build());
        assertThat(NameSearchProbe.present(db.jdbcUrl(), db.user(), db.password(), prefix()))
                .as("dropped on opening with the setting off").isFalse();
        Trees.create(root, "later-percent%.txt");
        off.scan(root);
        assertFinds(off, FileQuery.any().withNameContaining("CENT%"), root, e -> name(e).contains("cent%"));
        FsIndex again = track(db.builder(prefix()).nameSearchIndex(true).build());
        assertThat(NameSearchProbe.present(db.jdbcUrl(), db.user(), db.password(), prefix()))
                .as("rebuilt from the rows on opening with the setting on again").isEqualTo(engineHasOne);
        assertFinds(again, FileQuery.any().withNameContaining("CENT%"), root, e -> name(e).contains("cent%"));
    }

    @Test
    void entriesCarryTheirKeysAndHashesAndAreFoundById() throws Exception {
        Path root = tree("d/", "d/f.txt");
        FsIndex index = openIndex();
        index.scan(root, FULL);

        FileEntry f = index.lookup(root.resolve("d/f.txt")).orElseThrow();
        assertThat(f.contentHash()).isEqualTo(sha256(Files.readAllBytes(root.resolve("d/f.txt"))));
        assertThat(f.fingerprint()).isNotNull();
        assertThat(f.fileKey()).isNotNull();
        assertThat(index.lookup(root.resolve("d")).orElseThrow().contentHash()).isNull();
        for (IndexReader read : readers(index)) {
            assertThat(read.lookup(f.id())).contains(f);
            assertThat(read.lookup(f.parentId()).orElseThrow().path()).isEqualTo(root.resolve("d"));
            assertThat(read.lookup(Long.MAX_VALUE)).isEmpty();
        }

        Trees.delete(root.resolve("d"));
        index.scan(root);
        assertThat(index.lookup(f.id())).as("an entry found gone is kept only for move detection").isEmpty();
    }

    @Test
    void childrenPagesHoldEveryChildOnceInCodePointOrder() throws IOException {
        Path root = tree();
        for (String n : QueryTrees.HOSTILE) {
            Files.writeString(root.resolve(n), n);
        }
        FsIndex index = openIndex();
        index.scan(root);
        List<String> expected = Stream.of(QueryTrees.HOSTILE).sorted(QueryConformanceTest::byCodePoint).toList();

        for (IndexReader read : readers(index)) {
            List<String> paged = new ArrayList<>();
            String after = null;
            for (List<FileEntry> page = read.children(root, null, 4); !page.isEmpty();
                 page = read.children(root, after, 4)) {
                assertThat(page.size()).isLessThanOrEqualTo(4);
                page.forEach(e -> assertThat(e.path()).isEqualTo(root.resolve(e.name())));
                page.forEach(e -> paged.add(e.name()));
                after = page.get(page.size() - 1).name();
            }
            assertThat(paged).containsExactlyElementsOf(expected);
            assertThat(read.children(root.resolve("nope"), null, 4)).isEmpty();
        }
    }

    @Test
    void findAnswersWhatAWalkOfTheDiskFinds() throws IOException {
        Path root = QueryTrees.random(tree(), new Random(24), 120);
        FsIndex index = openIndex();
        index.scan(root);
        Path sub = root.resolve("d1");
        List<IndexReader> readers = readers(index);
        assertFindsAsTheDisk(readers, root, sub);

        // Churn: a subtree gone, one moved into the searched directory, files grown, added and renamed.
        Trees.delete(root.resolve("d3/deep"));
        Files.move(root.resolve("d4"), sub.resolve("d4-moved"));
        try (Stream<Path> files = Files.list(root.resolve("d0"))) {
            for (Path f : files.toList()) {
                Files.write(f, new byte[33]);
            }
        }
        Trees.create(root, "d2/new%_.txt", "d1/sub/NEW.TXT");
        Path x = walk(root).stream().filter(p -> name(p).equals("x")).findFirst().orElseThrow();
        Files.move(x, root.resolve("d2/renamed-x.txt"));
        index.scan(root);
        assertFindsAsTheDisk(readers, root, sub);
    }

    private void assertFindsAsTheDisk(List<IndexReader> readers, Path root, Path sub) {
        Instant middle = Instant.parse("2020-06-01T00:00:00Z");
        for (IndexReader read : readers) {
            for (String glob : List.of("*.txt", "*%*", "_", "a.txt", "*\\*.txt", "q?.txt", "[a-c]*", "[!a-z]*",
                    "*\u00e9*", "cafe\u0301.txt", "*\ud83d\ude00*", "line\nbreak.txt", "*[*]*", "**", "*cent%*",
                    "under_*", "*reak.t*", "*Case*", "*elvin*", "f1*.BIN")) {
                // The JDK's glob lets no wildcard match a newline, as fnmatch and fsindex do: swap newlines out.
                PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + glob.replace('\n', NEWLINE));
                assertFinds(read, FileQuery.any().withNameGlob(glob), root,
                        e -> m.matches(Path.of(name(e).replace('\n', NEWLINE))));
            }
            for (String text : List.of("TXT", "%", "_", "\\", "'\"`", "\t", "\n", "\u00c9", "e\u0301", "k", "i",
                    "\ud83d\ude00", "ca", "CENT%", "UNDER_", "slash", "BREAK", "afe", ".tx", "f1", "emoji-",
                    "ELVIN", "e.txt", "case.t", "x.txt", "f12", ".bin")) {
                String lower = text.toLowerCase(Locale.ROOT);
                assertFinds(read, FileQuery.any().withNameContaining(text), root,
                        e -> name(e).toLowerCase(Locale.ROOT).contains(lower));
            }
            assertFinds(read, FileQuery.any().withUnder(sub).withKind(FileKind.FILE), root,
                    e -> e.startsWith(sub) && !e.equals(sub) && Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS));
            assertFinds(read, FileQuery.any().withKind(FileKind.DIRECTORY).withUnder(root), root,
                    e -> !e.equals(root) && Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS));
            assertFinds(read, FileQuery.any().withSize(10L, 40L).withUnder(root), root,
                    e -> !e.equals(root) && size(e) >= 10 && size(e) <= 40);
            assertFinds(read, FileQuery.any().withModified(middle, null).withKind(FileKind.FILE), root,
                    e -> Files.isRegularFile(e) && mtime(e).isAfter(middle));
            assertFinds(read, FileQuery.any().withModified(null, middle).withNameContaining(".TXT").withUnder(sub),
                    root, e -> e.startsWith(sub) && !e.equals(sub) && mtime(e).isBefore(middle)
                            && name(e).toLowerCase(Locale.ROOT).contains(".txt"));
            assertThat(read.find(FileQuery.any().withUnder(root.resolve("nope"))).entries()).isEmpty();
        }
    }

    @Test
    void findsThatDifferInOneConditionEachStateTheirOwn() throws IOException {
        // A handle renders each shape of find statement once and keeps it: asked one after another on one handle,
        // below a directory (walked) and below the root (the table), finds that differ in a single condition must
        // each run a statement that states exactly their conditions.
        Path root = QueryTrees.random(tree(), new Random(13), 120);
        Path sub = root.resolve("d3");
        FsIndex index = openIndex();
        index.scan(root);
        Instant early = Instant.parse("2020-03-01T00:00:00Z");
        Instant late = Instant.parse("2020-09-01T00:00:00Z");
        for (IndexReader read : readers(index)) {
            for (Path under : List.of(sub, root)) {
                Predicate<Path> below = e -> e.startsWith(under) && !e.equals(under);
                Predicate<Path> file = e -> below.test(e) && Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS);
                FileQuery files = FileQuery.any().withUnder(under).withKind(FileKind.FILE);
                assertFinds(read, files.withSize(10L, 40L), root, e -> file.test(e) && size(e) >= 10 && size(e) <= 40);
                assertFinds(read, files.withSize(10L, null), root, e -> file.test(e) && size(e) >= 10);
                assertFinds(read, files.withSize(null, 40L), root, e -> file.test(e) && size(e) <= 40);
                assertFinds(read, files.withModified(early, late), root,
                        e -> file.test(e) && mtime(e).isAfter(early) && mtime(e).isBefore(late));
                assertFinds(read, files.withModified(early, null), root, e -> file.test(e) && mtime(e).isAfter(early));
                assertFinds(read, files.withModified(null, late), root, e -> file.test(e) && mtime(e).isBefore(late));
                assertFinds(read, FileQuery.any().withUnder(under).withSize(null, 40L), root,
                        e -> below.test(e) && size(e) <= 40);
                assertFinds(read, files.withNameGlob("*.txt"), root, e -> file.test(e) && name(e).endsWith(".txt"));
                assertFinds(read, files.withNameContaining("F1"), root,
                        e -> file.test(e) && name(e).toLowerCase(Locale.ROOT).contains("f1"));
                assertFinds(read, files.withNameGlob("*.txt").withNameContaining("F1"), root, e -> file.test(e)
                        && name(e).endsWith(".txt") && name(e).toLowerCase(Locale.ROOT).contains("f1"));
                assertFinds(read, files, root, file);
            }
        }
    }

    @Test
    void pagesReturnEveryMatchOnceWhileAScanChangesTheIndexBetweenThem() throws IOException {
        // Rule: an entry that matches throughout is returned exactly once; what a scan adds or changes between pages
        // is returned at most once; nothing is returned twice.
        Path root = tree("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt", "keep/", "keep/g.txt");
        FsIndex index = openIndex();
        index.scan(root);
        FileQuery query = FileQuery.any().withNameGlob("*.txt").withLimit(2);

        FindPage first = index.find(query);
        List<String> later = new ArrayList<>(List.of("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"));
        first.entries().forEach(e -> later.remove(e.name()));
        String deleted = later.get(0);
        String moved = later.get(1);
        Trees.delete(root.resolve(deleted));
        Files.move(root.resolve(moved), root.resolve("keep/moved.txt"));
        Trees.create(root, "new.txt", "keep/new2.txt");
        index.scan(root);
        List<FileEntry> seen = withPagesAfter(first, query, index::find);

        assertThat(seen.stream().map(FileEntry::id).distinct().count()).isEqualTo(seen.size());
        Set<String> names = new HashSet<>();
        seen.forEach(e -> names.add(e.name()));
        List<String> unchanged = new ArrayList<>(List.of("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"));
        unchanged.removeAll(List.of(deleted, moved));
        assertThat(names).containsAll(unchanged).contains("g.txt", "new.txt", "new2.txt", "moved.txt")
                .doesNotContain(deleted, moved);
    }

    @Test
    void aLargeSubtreeIsAnsweredFromWholeTablePassesAsTheDiskSays() throws IOException {
        // More than 5,000 rows below the root and below big/: a find by name reads the whole table for them instead
        // of walking the subtree; small/ is still walked, and so is every subtree for sizes and a size range (from
        // the tree index), whose pages here need the paths of more directories than are looked up one by one. All
        // must answer what the disk says.
        Path root = tree("big/", "small/", "small/inner/");
        Random random = new Random(5);
        for (int d = 0; d < 60; d++) {
            Path dir = Files.createDirectories(root.resolve("big/d" + d + "/e" + (d % 7)));
            for (int f = 0; f < 100; f++) {
                Files.write(dir.resolve("f" + f + (f % 10 == 0 ? ".log" : ".dat")), new byte[random.nextInt(50)]);
            }
        }
        for (int f = 0; f < 30; f++) {
            Files.write(root.resolve((f % 2 == 0 ? "small/" : "small/inner/") + "s" + f + ".log"),
                    new byte[random.nextInt(50)]);
        }
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("big/d3"));
        Files.move(root.resolve("big/d4"), root.resolve("small/inner/d4"));
        index.scan(root);

        for (IndexReader read : readers(index)) {
            for (Path dir : List.of(root, root.resolve("big"), root.resolve("small"))) {
                DirectorySize s = read.directorySize(dir).orElseThrow();
                assertThat(new long[] {s.bytes(), s.files(), s.directories()}).as(dir.toString())
                        .containsExactly(walkSize(dir));
                Path d = dir;
                assertFinds(read, FileQuery.any().withUnder(dir).withSize(20L, 30L), 300, root,
                        e -> e.startsWith(d) && !e.equals(d) && Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS)
                                && size(e) >= 20 && size(e) <= 30);
                assertFinds(read, FileQuery.any().withUnder(dir).withNameGlob("*.log"), 100, root,
                        e -> e.startsWith(d) && !e.equals(d) && name(e).endsWith(".log"));
            }
        }
    }

    // Schema version 7 adds the tree index that sizes and ranges below a directory are read from (version 8 orders
    // it anew): rows written at version 6 are in it once the index is opened.
    @Test
    void rowsOfAVersion6IndexAreSummedAndFoundAfterTheUpgrade() throws Exception {
        String prefix = TestDatabase.freshPrefix();
        TestDatabase db = database();
        SchemaScripts.apply(db.builder(prefix), 1, 6);
        RawIndex raw = new RawIndex(db, prefix);
        raw.update("INSERT INTO ${prefix}scans (id, root, state, started_at, heartbeat_at) VALUES (1, '/v6',"
                + " 'COMPLETED', 1, 1)");
        String insert = "INSERT INTO ${prefix}files (id, parent, name, kind, size, mtime, scan_id) VALUES ";
        raw.update(insert + "(1, NULL, '/', 'DIRECTORY', 0, 0, 1)");
        raw.update(insert + "(2, 1, 'v6', 'DIRECTORY', 0, 0, 1)");
        raw.update(insert + "(3, 2, 'a.bin', 'FILE', 100, 5, 1)");
        raw.update(insert + "(4, 2, 'sub', 'DIRECTORY', 0, 0, 1)");
        raw.update(insert + "(5, 4, 'b.bin', 'FILE', 20, 7, 1)");

        FsIndex index = track(db.builder(prefix).nameSearchIndex(nameSearchIndex()).build());
        assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaScripts.currentVersion());
        IndexReader reader = trackReader(db.builder(prefix).buildReader());
        Path v6 = Path.of("/v6");
        for (IndexReader read : List.of(index, reader)) {
            DirectorySize s = read.directorySize(v6).orElseThrow();
            assertThat(new long[] {s.bytes(), s.files(), s.directories()}).containsExactly(120, 2, 1);
            assertThat(read.largestSubdirectories(v6, 5)).extracting(DirectorySize::bytes).containsExactly(20L);
            assertThat(read.find(FileQuery.any().withUnder(v6).withSize(10L, null)).entries())
                    .extracting(FileEntry::path).containsExactly(v6.resolve("a.bin"), v6.resolve("sub/b.bin"));
        }
    }

    @Test
    void duplicatesAreGroupedBySizeAndHashLargestWasteFirst() throws IOException {
        Path root = tree("x/", "y/", "z/");
        byte[] big = new byte[3000];
        new Random(1).nextBytes(big);
        for (String p : List.of("x/big1", "y/big2", "z/big3")) {
            Files.write(root.resolve(p), big);
        }
        for (String p : List.of("x/small1", "y/small2")) {
            Files.writeString(root.resolve(p), "same small content");
        }
        Files.writeString(root.resolve("x/unique"), "only one");
        Files.writeString(root.resolve("y/empty1"), "");
        Files.writeString(root.resolve("z/empty2"), "");
        FsIndex index = openIndex();
        index.scan(root, FULL);

        for (IndexReader read : readers(index)) {
            List<DuplicateGroup> groups = read.duplicates(null, 10);
            assertThat(groups).extracting(DuplicateGroup::wastedBytes).containsExactly(6000L, 18L, 0L);
            assertThat(groups.get(0).files()).extracting(FileEntry::path).containsExactlyInAnyOrder(
                    root.resolve("x/big1"), root.resolve("y/big2"), root.resolve("z/big3"));
            assertThat(groups.get(0).contentHash()).isEqualTo(sha256(big));
            assertThat(read.duplicates(null, 1)).hasSize(1);
            assertThat(read.duplicates(root.resolve("x"), 10)).isEmpty();
            List<DuplicateGroup> inXy = read.duplicates(root, 10).stream()
                    .filter(g -> g.files().stream().allMatch(f -> !f.path().startsWith(root.resolve("z")))).toList();
            assertThat(inXy).extracting(DuplicateGroup::wastedBytes).containsExactly(18L);
        }
    }

    private void assertFinds(IndexReader read, FileQuery query, Path root, Predicate<Path> onDisk) {
        assertFinds(read, query, 7, root, onDisk);
    }

    private void assertFinds(IndexReader read, FileQuery query, int pageSize, Path root, Predicate<Path> onDisk) {
        List<FileEntry> found = new ArrayList<>();
        FindPage page = read.find(query.withLimit(pageSize));
        found.addAll(page.entries());
        while (page.more()) {
            assertThat(page.entries()).hasSize(pageSize);
            page = read.find(query.withLimit(pageSize).after(page.cursor()));
            found.addAll(page.entries());
        }
        assertThat(found).extracting(FileEntry::id).isSorted().doesNotHaveDuplicates();
        Map<Path, FileKind> expected = new TreeMap<>();
        walk(root).stream().filter(p -> !p.equals(root) || query.under() == null).filter(onDisk)
                .forEach(p -> expected.put(p, kind(p)));
        Map<Path, FileKind> actual = new TreeMap<>();
        found.forEach(e -> actual.put(e.path(), e.kind()));
        // Entries the index holds above the tree (its trunk) are outside what the walk sees.
        actual.keySet().removeIf(p -> !p.startsWith(root));
        assertThat(actual).as(query.toString()).isEqualTo(expected);
    }

    private static int byCodePoint(String a, String b) {
        return java.util.Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
