package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scan behaviour every dialect must show, on a real database. A dialect's test extends this class and says in
 * {@link #database()} which database to use; see {@code scanner-testkit/README.md}.
 */
public abstract class FsIndexConformanceTest extends IndexTest {

    @Test
    void scanRecordsEveryEntryAndARescanChangesNothing() {
        Path root = tree("a/", "a/x.txt", "a/b/", "a/b/y.txt", "z.txt");
        FsIndex index = openIndex();

        ScanResult first = index.scan(root);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(first.added()).isEqualTo(5 + trunkDepth(root) + 1);
        assertThat(first.deleted()).isZero();
        assertThat(first.errors()).isEmpty();

        ScanResult second = index.scan(root);
        assertThat(second.added()).isZero();
        assertThat(second.modified()).isZero();
        assertThat(second.deleted()).isZero();
        assertThat(second.unchanged()).isEqualTo(6); // the five entries and the root itself
        assertThat(second.scanId()).isGreaterThan(first.scanId());
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void rescanRecordsAdditionsChangesAndDeletionsOfWholeSubtrees() throws IOException {
        Path root = tree("a/", "a/x.txt", "a/b/", "a/b/y.txt", "a/b/c/", "a/b/c/deep.txt", "z.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long keptId = index.lookup(root.resolve("a/x.txt")).orElseThrow().id();

        Trees.delete(root.resolve("a/b"));
        Files.writeString(root.resolve("z.txt"), "longer content than before");
        Trees.create(root, "new/", "new/n.txt");
        ScanResult r = index.scan(root);

        assertThat(r.deleted()).isEqualTo(4);
        assertThat(r.added()).isEqualTo(2);
        assertThat(r.modified()).isGreaterThanOrEqualTo(1);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(index.lookup(root.resolve("a/x.txt")).orElseThrow().id()).isEqualTo(keptId);
        assertThat(index.lookup(root.resolve("a/b"))).isEmpty();
    }

    @Test
    void aFileThatBecameADirectoryIsDescendedIntoAndKeepsItsId() throws IOException {
        Path root = tree("x", "d/", "d/inner.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long xId = index.lookup(root.resolve("x")).orElseThrow().id();

        Files.delete(root.resolve("x"));
        Trees.create(root, "x/", "x/child.txt");
        Trees.delete(root.resolve("d"));
        Files.writeString(root.resolve("d"), "now a file");
        index.scan(root);

        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(index.lookup(root.resolve("x")).orElseThrow().id()).isEqualTo(xId);
        assertThat(index.lookup(root.resolve("x/child.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("d/inner.txt"))).isEmpty();
    }

    @Test
    void lookupAndChildrenReturnWhatTheScanRecorded() throws IOException {
        Path root = tree("d/", "d/f.txt", "d/g.txt");
        FsIndex index = openIndex();
        index.scan(root);

        FileEntry d = index.lookup(root.resolve("d")).orElseThrow();
        assertThat(d.kind()).isEqualTo(FileKind.DIRECTORY);
        FileEntry f = index.lookup(root.resolve("d/f.txt")).orElseThrow();
        assertThat(f.kind()).isEqualTo(FileKind.FILE);
        assertThat(f.parentId()).isEqualTo(d.id());
        assertThat(f.size()).isEqualTo(Files.size(root.resolve("d/f.txt")));
        assertThat(f.mtime()).isEqualTo(Files.getLastModifiedTime(root.resolve("d/f.txt")).toInstant());
        assertThat(index.children(root.resolve("d"))).extracting(FileEntry::name).containsExactly("f.txt", "g.txt");
        assertThat(index.lookup(root.resolve("nope"))).isEmpty();
        assertThat(index.children(root.resolve("nope"))).isEmpty();
    }

    @Test
    void aRootScannedThroughASymlinkIsFoundThroughItToo() throws IOException {
        Path root = tree("d/", "d/f.txt", "d/gone.txt", "top.txt");
        Path alias = Files.createSymbolicLink(tmp.resolve("alias"), root);
        Path aliasOfParent = Files.createSymbolicLink(tmp.resolve("parentAlias"), tmp);
        FsIndex index = openIndex();

        ScanResult r = index.scan(alias);
        Files.delete(root.resolve("d/gone.txt"));       // recorded, gone on disk: still found until the next scan

        assertThat(r.root()).as("scans store the real path").isEqualTo(root);
        try (IndexReader reader = database().builder(prefix()).buildReader()) {
            for (IndexReader read : List.of(index, reader)) {
                assertThat(read.lookup(alias)).get().extracting(FileEntry::path, FileEntry::kind)
                        .containsExactly(root, FileKind.DIRECTORY);
                assertThat(read.children(alias)).extracting(FileEntry::name).containsExactly("d", "top.txt");
                assertThat(read.lookup(alias.resolve("d/f.txt"))).get().extracting(FileEntry::path)
                        .isEqualTo(root.resolve("d/f.txt"));
                assertThat(read.lookup(alias.resolve("d/gone.txt"))).isPresent();
                assertThat(read.children(aliasOfParent.resolve("alias/d"))).extracting(FileEntry::name)
                        .containsExactly("f.txt", "gone.txt");
                assertThat(read.lookup(alias.resolve("nope"))).isEmpty();
            }
        }
    }

    @Test
    void partialScanUpdatesItsTrunkWithoutMarkingSiblingsStale() throws IOException {
        Path root = tree("a/", "a/b/", "a/b/c/", "a/b/c/in.txt", "a/b/sibling.txt", "a/other/", "a/other/o.txt");
        FsIndex index = openIndex();
        index.scan(root);

        Trees.delete(root.resolve("a/other"));     // gone on disk, but outside the partial scan
        Trees.create(root, "a/b/c/new.txt");
        ScanResult partial = index.scan(root.resolve("a/b/c"));

        assertThat(partial.added()).isEqualTo(1);
        assertThat(partial.deleted()).isZero();
        assertThat(index.lookup(root.resolve("a/other/o.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("a/b/sibling.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("a/b/c/new.txt"))).isPresent();

        index.scan(root);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void partialScanOfAPathNeverScannedCreatesItsTrunk() {
        Path root = tree("a/", "a/b/", "a/b/f.txt", "a/side.txt");
        FsIndex index = openIndex();

        index.scan(root.resolve("a/b"));

        assertThat(index.lookup(root.resolve("a"))).isPresent();
        assertThat(index.lookup(root.resolve("a/b/f.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("a/side.txt"))).isEmpty();
    }

    @Test
    void missingRootFailsTheScanAndDeletesNothing() {
        Path root = tree("a/", "a/f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("a"));

        assertThatThrownBy(() -> index.scan(root.resolve("a")))
                .isInstanceOf(ScanFailedException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("nothing was deleted");
        assertThat(index.lookup(root.resolve("a/f.txt"))).isPresent();
    }

    @Test
    void missingRootIsRemovedWhenTheScanAsksForIt() {
        Path root = tree("a/", "a/f.txt", "keep.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("a"));

        ScanResult r = index.scan(root.resolve("a"), ScanOptions.defaults().withRemoveMissingRoot(true));

        assertThat(r.deleted()).isEqualTo(2);
        assertThat(index.lookup(root.resolve("a"))).isEmpty();
        assertThat(index.lookup(root.resolve("keep.txt"))).isPresent();
    }

    @Test
    void scanningAFileRecordsJustThatFile() throws IOException {
        Path root = tree("f.txt", "g.txt");
        FsIndex index = openIndex();
        index.scan(root.resolve("f.txt"));
        assertThat(index.lookup(root.resolve("f.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("g.txt"))).isEmpty();
    }

    @Test
    void namesAreStoredByteExact() throws IOException {
        String[] names = {"Case", "case", "CASE", "trailing ", " leading", "tab\tname", "caf\u00e9", "cafe\u0301",
                "\u00c5ngstr\u00f6m", "A\u030angstro\u0308m", "emoji-\ud83d\ude00", "line\nbreak", "quote'\"`",
                "semi;colon", "percent%_", "back\\slash", "...dots", "-dash"};
        Path root = tree();
        for (String n : names) {
            Files.writeString(root.resolve(n), n);
        }
        FsIndex index = openIndex();
        index.scan(root);

        assertThat(index.children(root)).extracting(FileEntry::name).containsExactlyInAnyOrder(names);
        for (String n : names) {
            assertThat(index.lookup(root.resolve(n))).as(n).get().extracting(FileEntry::size)
                    .isEqualTo((long) n.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        }
        assertThat(index.scan(root).added()).isZero();
    }

    @Test
    void theLongestLegalNameFits() throws IOException {
        Path root = tree();
        String ascii = "n".repeat(255);
        String multibyte = "\u00e9".repeat(127);           // 254 bytes in UTF-8
        String fourByte = "\ud83d\ude00".repeat(63);         // 252 bytes in UTF-8
        for (String n : List.of(ascii, multibyte, fourByte)) {
            Files.writeString(root.resolve(n), "x");
        }
        FsIndex index = openIndex();
        index.scan(root);
        assertThat(index.children(root)).extracting(FileEntry::name)
                .containsExactlyInAnyOrder(ascii, multibyte, fourByte);
    }

    @Test
    void aVeryDeepSubtreeIsRecordedAndSweptWhole() throws IOException {
        // 1,100 levels: deeper than SQLite's trigger depth (1000) and InnoDB's cascade depth (15), which a sweep
        // relying on ON DELETE CASCADE alone would hit. A path stays under Linux's 4096-byte limit.
        Path root = tree("keep.txt");
        Path deepest = root.resolve("d/".repeat(1100));
        Files.createDirectories(deepest);
        Files.writeString(deepest.resolve("bottom.txt"), "x");
        FsIndex index = openIndex();
        assertThat(index.scan(root).added()).isGreaterThanOrEqualTo(1102);
        assertThat(index.lookup(deepest.resolve("bottom.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("d/".repeat(20) + "nope/d"))).as("a name missing far down").isEmpty();

        Trees.delete(root.resolve("d"));
        ScanResult r = index.scan(root);
        assertThat(index.lookup(deepest.resolve("bottom.txt"))).isEmpty();

        assertThat(r.deleted()).isEqualTo(1101);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));

        // The same depth below a directory that becomes a file: its old contents go at once.
        Files.createDirectories(deepest);
        index.scan(root);
        Trees.delete(root.resolve("d"));
        Files.writeString(root.resolve("d"), "now a file");
        ScanResult replaced = index.scan(root);

        assertThat(replaced.deleted()).isEqualTo(1099); // the 1,099 directories below the top one
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void idsAreNeverReusedAfterTheNewestRowsAreDeleted() {
        Path root = tree("a/", "a/1", "a/2", "a/3");
        FsIndex index = openIndex(b -> b.orphanRetention(java.time.Duration.ZERO));     // gone rows deleted at once
        index.scan(root);
        long newest = index.children(root.resolve("a")).stream().mapToLong(FileEntry::id).max().orElseThrow();

        Trees.delete(root.resolve("a"));
        index.scan(root);
        Trees.create(root, "b/", "b/1");
        index.scan(root);

        assertThat(index.lookup(root.resolve("b")).orElseThrow().id()).isGreaterThan(newest);
        assertThat(index.lookup(root.resolve("b/1")).orElseThrow().id()).isGreaterThan(newest);
    }

    @Test
    void backgroundScanReportsProgressToItsListenerAndSession() throws Exception {
        Path root = tree("a/", "a/1", "b/", "b/2", "c/", "c/3");
        FsIndex index = openIndex();
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        io.fsindex.api.ScanListener listener = new io.fsindex.api.ScanListener() {
            @Override
            public void started(long scanId, Path scanned) {
                events.add("started " + scanned.getFileName());
            }

            @Override
            public void progress(io.fsindex.api.ScanProgress p) {
                events.add("progress " + p.directories());
            }

            @Override
            public void finished(ScanResult r) {
                events.add("finished " + r.added());
            }
        };

        io.fsindex.api.ScanSession session = index.startScan(root, ScanOptions.defaults().withListener(listener));
        ScanResult r = session.await();

        assertThat(session.isDone()).isTrue();
        assertThat(session.scanId()).isEqualTo(r.scanId());
        assertThat(session.progress().directories()).isEqualTo(4);
        assertThat(session.progress().entries()).isEqualTo(r.added() + r.modified() + r.moved() + r.unchanged());
        assertThat(events).startsWith("started tree").endsWith("finished " + r.added())
                .contains("progress 1", "progress 4");
    }

    @Test
    void aCancelledScanDeletesNothingAndLeavesNoStaleRows() throws Exception {
        Path root = tree("a/", "a/1", "b/", "b/2", "gone.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Files.delete(root.resolve("gone.txt"));
        Trees.delete(root.resolve("b"));

        java.util.concurrent.atomic.AtomicReference<io.fsindex.api.ScanSession> session =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        io.fsindex.api.Walker cancelAfterRoot = new ForwardingWalker() {

            @Override
            public io.fsindex.api.DirectoryListing list(Path directory) throws IOException {
                try {
                    started.await();
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
                }
                session.get().cancel();
                return super.list(directory);
            }
        };
        session.set(index.startScan(root, ScanOptions.defaults().withWalker(cancelAfterRoot)));
        started.countDown();

        assertThatThrownBy(() -> session.get().await()).isInstanceOf(java.util.concurrent.CancellationException.class);
        assertThat(index.lookup(root.resolve("gone.txt"))).get().extracting(FileEntry::stale).isEqualTo(false);
        assertThat(index.lookup(root.resolve("b/2"))).get().extracting(FileEntry::stale).isEqualTo(false);
        assertThat(index.info(1).recentScans().get(0).state()).isEqualTo("CANCELLED");

        index.scan(root);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void aFailedScanIsRecordedAsFailed() {
        FsIndex index = openIndex();
        assertThatThrownBy(() -> index.scan(tmp.resolve("missing"))).isInstanceOf(ScanFailedException.class);
        io.fsindex.api.ScanRecord last = index.info(1).recentScans().get(0);
        assertThat(last.state()).isEqualTo("FAILED");
        assertThat(last.message()).contains("does not exist");
    }

    @Test
    void theSameIndexOpensFromProperties() {
        Path root = tree("f");
        String prefix = TestDatabase.freshPrefix();
        FsIndex first = track(FsIndex.fromProperties(database().properties(prefix)));
        first.scan(root);
        FsIndex second = track(FsIndex.fromProperties(database().properties(prefix)));
        assertThat(second.lookup(root.resolve("f"))).isPresent();
    }

    @Test
    void theSameIndexOpensFromEnvironmentVariables() {
        Path root = tree("f");
        String prefix = TestDatabase.freshPrefix();
        java.util.Map<String, String> env = new java.util.HashMap<>();
        // fsindex.tablePrefix -> FSINDEX_TABLE_PREFIX: each property's variable, the mode settings included
        database().properties(prefix).forEach((k, v) -> env.put(((String) k).replace("fsindex.", "fsindex_")
                .replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT), (String) v));
        track(database().builder(prefix).build()).scan(root);
        FsIndex fromEnv = track(FsIndex.builder().environment(env).build());
        assertThat(fromEnv.lookup(root.resolve("f"))).isPresent();
    }

    /**
     * Every setting has a property, and each takes effect: a feed capacity of 3 keeps the newest three changes, and an
     * orphan retention of {@code 0s} deletes a gone entry's row in the scan that found it gone.
     */
    @Test
    void everySettingOpensFromPropertiesAndTakesEffect() throws Exception {
        Path root = tree("a.txt", "b.txt", "d/", "d/c.txt");
        String prefix = TestDatabase.freshPrefix();
        java.util.Properties p = database().properties(prefix);
        p.setProperty("fsindex.schemaMode", "MIGRATE");
        p.setProperty("fsindex.retryTimeout", "1m30s");
        p.setProperty("fsindex.orphanRetention", "0s");
        p.setProperty("fsindex.changeFeedCapacity", "3");
        FsIndex index = track(FsIndex.fromProperties(p));
        index.scan(root);
        long gone = index.lookup(root.resolve("a.txt")).orElseThrow().id();

        long end = index.changeFeedEnd();
        assertThat(end).isGreaterThan(3);
        assertThat(index.changesSince(0, 100).resyncNeeded()).as("older changes pruned to the capacity").isTrue();
        assertThat(index.changesSince(end - 3, 100).changes()).hasSize(3);

        Files.delete(root.resolve("a.txt"));
        index.scan(root);
        assertThat(new RawIndex(database(), prefix).queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE id = " + gone))
                .as("no orphan kept").isZero();
    }

    /**
     * Guards the table prefix's limit: every name fsindex derives from the longest prefix the engine takes fits its
     * identifier limit whole (PostgreSQL would silently cut longer names short, two of them then one), so scans,
     * moves, deletions of subtrees and the feed work; one character more fails at {@code build()}, naming the limit
     * and the longest prefix, before anything is created. An engine without a limit takes a 200-character prefix.
     */
    @Test
    void theLongestTablePrefixTheEngineTakesWorksAndALongerOneFailsAtBuild() throws Exception {
        int longest = Math.min(200, io.fsindex.core.SchemaScripts.longestTablePrefix(database().jdbcUrl()));
        String prefix = prefixOfLength(longest);
        Path root = tree("d/", "d/e/", "d/e/f.txt", "g.txt");
        FsIndex index = track(database().builder(prefix).build());
        long cursor = index.changeFeedEnd();
        index.scan(root);
        long fId = index.lookup(root.resolve("d/e/f.txt")).orElseThrow().id();
        Files.move(root.resolve("d/e/f.txt"), root.resolve("moved.txt"));
        Trees.delete(root.resolve("d"));
        index.scan(root);

        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(index.lookup(root.resolve("moved.txt")).orElseThrow().id()).isEqualTo(fId);
        assertThat(index.lookup(root.resolve("d"))).isEmpty();
        assertThat(index.changesSince(cursor, 100).changes()).extracting(c -> c.type().name())
                .contains("ADDED", "MOVED", "DELETED");
        assertThat(index.info(1).schemaVersion()).isEqualTo(io.fsindex.core.SchemaScripts.currentVersion());

        if (longest < 200) {
            String tooLong = prefixOfLength(longest + 1);
            assertThatThrownBy(() -> database().builder(tooLong).build())
                    .isInstanceOf(io.fsindex.api.FsIndexConfigurationException.class)
                    .hasMessageContaining("tablePrefix '" + tooLong + "' is " + (longest + 1) + " characters long")
                    .hasMessageContaining("Use a prefix of at most " + longest + " characters");
            assertThatThrownBy(() -> database().builder(tooLong).buildReader())
                    .isInstanceOf(io.fsindex.api.FsIndexConfigurationException.class)
                    .hasMessageContaining("Use a prefix of at most " + longest + " characters");
            assertThat(new RawIndex(database(), tooLong).tableCount()).as("tables created").isZero();
        }
    }

    /** A fresh table prefix of exactly {@code length} characters. */
    private static String prefixOfLength(int length) {
        String fresh = TestDatabase.freshPrefix();
        return fresh + "x".repeat(length - fresh.length() - 1) + "_";
    }

    private static int trunkDepth(Path root) {
        return root.toAbsolutePath().getNameCount();
    }
}
