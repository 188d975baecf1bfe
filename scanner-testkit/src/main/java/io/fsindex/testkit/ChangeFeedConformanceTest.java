package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The change feed and moves that keep ids: what each kind of change looks like, that a listener hears exactly what
 * the feed holds once it is committed, that numbers follow commit order while several writers wait on each other,
 * and that a consumer polling alongside four scanning processes receives every change exactly once, in order.
 * A dialect's test extends this class like {@link FsIndexConformanceTest}.
 */
public abstract class ChangeFeedConformanceTest extends IndexTest {

    /** Every change so far, as the feed gives them page by page from {@code cursor}. */
    private static List<Change> drain(FsIndex index, long cursor) {
        List<Change> out = new ArrayList<>();
        while (true) {
            ChangeBatch page = index.changesSince(cursor, 7);
            assertThat(page.resyncNeeded()).isFalse();
            if (page.changes().isEmpty()) {
                return out;
            }
            out.addAll(page.changes());
            cursor = page.nextCursor();
        }
    }

    /** The changes below {@code root}, each as "TYPE path" (relative), "TYPE old -> new" for moves. */
    private static List<String> described(List<Change> changes, Path root) {
        List<String> out = new ArrayList<>();
        for (Change c : changes) {
            if (!c.path().startsWith(root) || c.path().equals(root)) {
                continue;
            }
            String path = root.relativize(c.path()).toString();
            out.add(c.type() == ChangeType.MOVED
                    ? "MOVED " + root.relativize(c.previousPath()) + " -> " + path
                    : c.type() + " " + path);
        }
        return out;
    }

    private static final class Recording implements ScanListener {
        final List<Change> changes = new CopyOnWriteArrayList<>();

        @Override
        public void changed(Change change) {
            changes.add(change);
        }
    }

    @Test
    void eachKindOfChangeIsInTheFeedAndTheListenerHearsExactlyTheFeed() throws Exception {
        Path root = tree("a/", "a/x.txt", "b.txt", "d/", "d/y.txt");
        FsIndex index = openIndex();
        Recording first = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(first));
        assertThat(described(first.changes, root)).containsExactlyInAnyOrder(
                "ADDED a", "ADDED a/x.txt", "ADDED b.txt", "ADDED d", "ADDED d/y.txt");
        assertThat(drain(index, 0)).isEqualTo(first.changes);
        long cursor = index.changeFeedEnd();
        long aId = index.lookup(root.resolve("a")).orElseThrow().id();
        long xId = index.lookup(root.resolve("a/x.txt")).orElseThrow().id();

        Files.writeString(root.resolve("b.txt"), "longer than it was");
        Trees.delete(root.resolve("d"));
        Trees.create(root, "c.txt");
        Files.move(root.resolve("a"), root.resolve("a2"));
        Recording second = new Recording();
        ScanResult r = index.scan(root, ScanOptions.defaults().withListener(second));

        List<Change> fed = drain(index, cursor);
        assertThat(second.changes).isEqualTo(fed);
        assertThat(described(fed, root)).containsExactlyInAnyOrder(
                "MODIFIED b.txt", "DELETED d", "DELETED d/y.txt", "ADDED c.txt", "MOVED a -> a2");
        assertThat(fed).filteredOn(c -> c.type() == ChangeType.MOVED).singleElement()
                .satisfies(c -> assertThat(c.id()).isEqualTo(aId));
        assertThat(r.moved()).isEqualTo(1);
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.deleted()).isEqualTo(2);
        assertThat(r.modified()).isGreaterThanOrEqualTo(1);
        assertThat(index.lookup(root.resolve("a2")).orElseThrow().id()).isEqualTo(aId);
        assertThat(index.lookup(root.resolve("a2/x.txt")).orElseThrow().id()).isEqualTo(xId);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        for (int i = 1; i < fed.size(); i++) {
            assertThat(fed.get(i).seq()).isEqualTo(fed.get(i - 1).seq() + 1);
        }
    }

    /**
     * Names holding what a bulk loader's text escapes (tab, newline, carriage return, backslash, and {@code \N}, the
     * text's null) reach the feed as they are on disk, for new entries and in the directory paths of their children.
     */
    @Test
    void namesABulkLoadEscapesReachTheFeedUnchanged() throws Exception {
        String[] names = {"tab\there", "new\nline", "cr\rhere", "back\\slash", "\\N", "\\\\N", "nul\\0", "ünï ✓"};
        List<String> spec = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (String name : names) {
            spec.add("files/" + name);
            spec.add(name + "/");
            spec.add(name + "/child");
            expected.addAll(List.of("ADDED files/" + name, "ADDED " + name, "ADDED " + name + "/child"));
        }
        spec.add("files/");
        expected.add("ADDED files");
        Path root = tree(spec.toArray(String[]::new));
        FsIndex index = openIndex();
        Recording heard = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(heard));
        List<Change> fed = drain(index, 0);
        assertThat(heard.changes).isEqualTo(fed);
        assertThat(described(fed, root)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * A transaction holds at most twice a listing part's changes before it locks the feed's head, then writes the held
     * ones and the rest as they come; a listing's parts stay within that, a sweep of a larger subtree does not.
     * Either way nothing may be lost, repeated or reordered: with parts of 1,024 entries (so 2,048 held changes), a
     * listing of 2,500 new files, then of 2,500 modified ones, and a sweep of the 2,501-entry subtree each land in
     * the feed once, contiguously, as the listener heard them.
     */
    @Test
    void aTransactionWithMoreChangesThanItHoldsStillRecordsEachOnceInOrder() throws Throwable {
        moreChangesThanHeld(1_024);
    }

    private void moreChangesThanHeld(int partEntries) throws Exception {
        int n = 2_500;
        String[] spec = new String[n + 1];
        spec[0] = "big/";
        for (int i = 0; i < n; i++) {
            spec[i + 1] = "big/f" + i + ".txt";
        }
        Path root = tree(spec);
        FsIndex index = openIndex();
        IndexInternals.of(index).listingPartEntries(partEntries);
        Recording added = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(added));
        List<Change> fed = drain(index, 0);
        assertThat(added.changes).isEqualTo(fed);
        assertThat(described(fed, root)).filteredOn(d -> d.startsWith("ADDED big/f")).hasSize(n)
                .doesNotHaveDuplicates();
        assertContiguous(fed);
        long cursor = index.changeFeedEnd();
        for (int i = 0; i < n; i++) {
            Files.writeString(root.resolve("big/f" + i + ".txt"), "a longer content than before: " + i);
        }
        Recording modified = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(modified));
        fed = drain(index, cursor);
        assertThat(modified.changes).isEqualTo(fed);
        assertThat(described(fed, root)).filteredOn(d -> d.startsWith("MODIFIED big/f")).hasSize(n)
                .doesNotHaveDuplicates();
        assertContiguous(fed);

        cursor = index.changeFeedEnd();
        Trees.delete(root.resolve("big"));
        Recording deleted = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(deleted));
        fed = drain(index, cursor);
        assertThat(deleted.changes).isEqualTo(fed);
        assertThat(described(fed, root)).filteredOn(d -> d.startsWith("DELETED big")).hasSize(n + 1)
                .doesNotHaveDuplicates();
        assertContiguous(fed);
    }

    /**
     * The case users lose most to: a directory moved outside the application, the old place scanned first (the
     * entries are gone there), the new place later. The rows come back with their ids, descendants included.
     */
    @Test
    void aDirectoryMovedBetweenScansOfItsOldAndNewPlacesKeepsItsIdAndItsDescendants() throws Exception {
        Path root = tree("src/photos/", "src/photos/p1.jpg", "src/photos/2024/", "src/photos/2024/p2.jpg", "dst/");
        FsIndex index = openIndex();
        index.scan(root);
        Map<String, Long> before = ids(index, root, "src/photos", "src/photos/p1.jpg", "src/photos/2024/p2.jpg");

        Files.move(root.resolve("src/photos"), root.resolve("dst/photos"));
        long cursor = index.changeFeedEnd();
        ScanResult oldPlace = index.scan(root.resolve("src"));
        assertThat(oldPlace.deleted()).isEqualTo(4);
        assertThat(index.lookup(root.resolve("src/photos"))).isEmpty();

        ScanResult newPlace = index.scan(root.resolve("dst"));
        assertThat(newPlace.moved()).isEqualTo(1);
        assertThat(newPlace.added()).isEqualTo(3);   // the descendants, back in the index with their ids
        assertThat(ids(index, root, "dst/photos", "dst/photos/p1.jpg", "dst/photos/2024/p2.jpg").values())
                .containsExactlyElementsOf(before.values());
        assertThat(described(drain(index, cursor), root)).containsExactly(
                "MODIFIED src",                          // its mtime: an entry left it
                "DELETED src/photos", "DELETED src/photos/2024", "DELETED src/photos/p1.jpg",
                "DELETED src/photos/2024/p2.jpg",
                "MODIFIED dst",
                "MOVED src/photos -> dst/photos", "ADDED dst/photos/2024", "ADDED dst/photos/p1.jpg",
                "ADDED dst/photos/2024/p2.jpg");
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    private static Map<String, Long> ids(FsIndex index, Path root, String... paths) {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (String p : paths) {
            out.put(p, index.lookup(root.resolve(p)).orElseThrow().id());
        }
        return out;
    }

    /**
     * An older scan never steals the row of a file a newer scan saw at its old place: the newer scan listed the old
     * directory while the file was there, so the older one, finding the file at its new place afterwards, records it
     * as a new entry and leaves the old row to the newer scan's view (the next scan of the old place removes it).
     */
    @Test
    void anOlderScanDoesNotMoveARowANewerScanSawAtItsOldPlace() throws Exception {
        Path root = tree("old/", "old/f.txt", "new/");
        FsIndex index = openIndex();
        index.scan(root);
        long f = index.lookup(root.resolve("old/f.txt")).orElseThrow().id();
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause beforeRoot = walker.pauseBeforeListing(root);
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        beforeRoot.awaitPaused();

        index.scan(root.resolve("old"));            // newer: sees f.txt in old/
        Files.move(root.resolve("old/f.txt"), root.resolve("new/f.txt"));
        beforeRoot.release();
        ScanResult r = older.await();

        assertThat(r.moved()).isZero();
        assertThat(index.lookup(root.resolve("old/f.txt")).orElseThrow().id()).isEqualTo(f);
        assertThat(index.lookup(root.resolve("new/f.txt")).orElseThrow().id()).isNotEqualTo(f);
        index.scan(root);                           // a scan newer than both sees the truth
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * Where the platform gives no file identity, a scan that computes fingerprints recognises a moved file by its
     * size and fingerprint, if exactly one gone file has them; with two candidates it cannot tell, so moves none.
     */
    @Test
    void withoutFileIdentitiesAMovedFileIsFoundByItsFingerprintIfNoOtherGoneFileHasIt() throws Exception {
        Path root = tree("a/", "b/", "c/");
        Files.writeString(root.resolve("a/unique.txt"), "only this file has this content");
        Files.writeString(root.resolve("a/twin1.txt"), "the same content");
        Files.writeString(root.resolve("a/twin2.txt"), "the same content");
        FsIndex index = openIndex();
        ScanOptions noKeys = ScanOptions.defaults().withWalker(new WithoutFileKeys())
                .withContentHashing(io.fsindex.api.ContentHashing.FINGERPRINT);
        index.scan(root, noKeys);
        Map<String, Long> before = ids(index, root, "a/unique.txt", "a/twin1.txt", "a/twin2.txt");

        Files.move(root.resolve("a/unique.txt"), root.resolve("b/unique.txt"));
        Files.move(root.resolve("a/twin1.txt"), root.resolve("b/twin1.txt"));
        Files.move(root.resolve("a/twin2.txt"), root.resolve("c/twin2.txt"));
        index.scan(root.resolve("a"), noKeys);      // all three gone from a/, kept as orphans
        ScanResult r = index.scan(root, noKeys);

        assertThat(r.moved()).isEqualTo(1);
        assertThat(index.lookup(root.resolve("b/unique.txt")).orElseThrow().id())
                .isEqualTo(before.get("a/unique.txt"));
        assertThat(index.lookup(root.resolve("b/twin1.txt")).orElseThrow().id()).isNotIn(before.values());
        assertThat(index.lookup(root.resolve("c/twin2.txt")).orElseThrow().id()).isNotIn(before.values());
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /** The real filesystem, as a platform without file identities (such as {@code fileKey()} on Windows) shows it. */
    private static final class WithoutFileKeys extends ForwardingWalker {
        @Override
        public io.fsindex.api.FileStat stat(Path path) throws java.io.IOException {
            return withoutKey(super.stat(path));
        }

        @Override
        public io.fsindex.api.DirectoryListing list(Path directory) throws java.io.IOException {
            io.fsindex.api.DirectoryListing l = super.list(directory);
            return new io.fsindex.api.DirectoryListing(l.entries().stream()
                    .map(e -> new io.fsindex.api.WalkedEntry(e.name(), withoutKey(e.stat()))).toList(), l.problems());
        }

        private static io.fsindex.api.FileStat withoutKey(io.fsindex.api.FileStat s) {
            return s == null ? null
                    : new io.fsindex.api.FileStat(s.kind(), s.size(), s.mtimeNanos(), s.linkTarget(), null);
        }
    }

    /** Only an entry that disappeared from its old place moves: a second name of the same file is a new entry. */
    @Test
    void aHardLinkIsANewEntryAndAFileReplacedUnderItsNameKeepsThatNamesRow() throws Exception {
        Path root = tree("f.txt", "g.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long f = index.lookup(root.resolve("f.txt")).orElseThrow().id();
        long g = index.lookup(root.resolve("g.txt")).orElseThrow().id();

        Files.createLink(root.resolve("link.txt"), root.resolve("f.txt"));
        Files.move(root.resolve("g.txt"), root.resolve("h.txt"));
        Files.writeString(root.resolve("g.txt"), "another file under the old name");
        ScanResult r = index.scan(root);

        assertThat(r.moved()).isZero();
        assertThat(index.lookup(root.resolve("f.txt")).orElseThrow().id()).isEqualTo(f);
        assertThat(index.lookup(root.resolve("link.txt")).orElseThrow().id()).isNotIn(f, g);
        assertThat(index.lookup(root.resolve("g.txt")).orElseThrow().id()).isEqualTo(g);
        assertThat(index.lookup(root.resolve("h.txt")).orElseThrow().id()).isNotIn(f, g);
    }

    @Test
    void aConsumerWhoseChangesWerePrunedIsToldToResyncNeverGivenAGap() {
        Path root = tree("a/", "a/1", "a/2", "a/3", "b/", "b/1", "b/2");
        FsIndex index = track(database().builder(TestDatabase.freshPrefix()).changeFeedCapacity(4).build());
        index.scan(root);
        long end = index.changeFeedEnd();
        assertThat(end).isGreaterThan(4);

        ChangeBatch tooOld = index.changesSince(0, 100);
        assertThat(tooOld.resyncNeeded()).isTrue();
        assertThat(tooOld.changes()).isEmpty();
        assertThat(tooOld.nextCursor()).isEqualTo(end);
        ChangeBatch kept = index.changesSince(end - 4, 100);
        assertThat(kept.resyncNeeded()).isFalse();
        assertThat(kept.changes()).extracting(Change::seq).containsExactly(end - 3, end - 2, end - 1, end);
    }

    /**
     * A change names its directory by a row of its own, which pruning drops once no kept change names it, an eighth
     * of the capacity at a time (finding them reads every kept change). Sixty scans, each adding a directory with a
     * file, into a feed of 64: the kept changes all read with their paths, and fewer directory rows than an eighth of
     * the capacity are named by none (without the pruning, every pruned change's would be).
     */
    @Test
    void directoryRowsOfPrunedChangesGoAnEighthOfTheCapacityAtATime() throws Exception {
        Path root = tree("seed.txt");
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(database().builder(prefix).changeFeedCapacity(64).build());
        for (int i = 0; i < 60; i++) {
            Files.createDirectories(root.resolve("d" + i));
            Files.writeString(root.resolve("d" + i + "/f.txt"), "f");
            index.scan(root);
        }
        long end = index.changeFeedEnd();
        assertThat(end).as("enough changes to prune many times over").isGreaterThan(2 * 64);

        ChangeBatch kept = index.changesSince(end - 64, 100);
        assertThat(kept.resyncNeeded()).isFalse();
        assertThat(kept.changes()).hasSize(64).allSatisfy(c -> assertThat(c.path()).isNotNull());
        long unnamed = new RawIndex(database(), prefix).queryLong("SELECT COUNT(*) FROM ${prefix}change_dirs d"
                + " WHERE NOT EXISTS (SELECT 1 FROM ${prefix}changes c WHERE c.dir = d.id)");
        assertThat(unnamed).isLessThan(64 / 8);
    }

    /**
     * A writer holding the feed's head makes every other writer wait, so a change numbered later can never commit
     * (and be read) before one numbered earlier. Scan A is held inside a transaction that holds the head and is
     * writing its first change (the test holds an uncommitted feed row with the number A takes next, so A's insert
     * waits for it; on SQLite, the test holds the database's write lock), scan B of another subtree starts
     * meanwhile, and a consumer keeps polling: it must see neither A's uncommitted change nor any of B's, and
     * afterwards every change exactly once. Numbers handed out by a sequence would let B commit first and the
     * consumer's cursor pass A's change for good.
     */
    @Test
    void numbersFollowCommitOrderWhileAnotherWriterWaits() throws Exception {
        Path root = tree("x/", "x/in.txt", "y/", "y/in.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long x = index.lookup(root.resolve("x")).orElseThrow().id();
        Files.writeString(root.resolve("new.txt"), "A's change");
        Files.writeString(root.resolve("y/new.txt"), "B's change");
        long cursor = index.changeFeedEnd();
        long held = cursor + 1;                 // the number A's first transaction with a change takes

        List<Change> seen = new ArrayList<>();
        try (Connection holder = DriverManager.getConnection(database().jdbcUrl(), database().user(),
                database().password())) {
            boolean sqlite = database().jdbcUrl().contains(":sqlite:");
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                if (sqlite) {
                    holder.setAutoCommit(true);
                    s.execute("BEGIN IMMEDIATE");
                } else {
                    s.executeUpdate("INSERT INTO " + prefix() + "changes (seq, entry, change_type, kind, dir, name,"
                            + " previous_path, scan_id, at) VALUES (" + held + ", " + x
                            + ", 'ADDED', 'FILE', NULL, 'held by the test', NULL, 1, 1)");
                }
            }
            CountDownLatch bStarted = new CountDownLatch(1);
            ScanListener startedB = new ScanListener() {
                @Override
                public void started(long scanId, Path scanRoot) {
                    bStarted.countDown();
                }
            };
            // On SQLite even starting a scan writes, so the scans start on threads of their own and wait there.
            java.util.concurrent.ExecutorService starter = java.util.concurrent.Executors.newFixedThreadPool(2);
            java.util.concurrent.Future<ScanResult> a = starter.submit(() -> index.scan(root));
            if (!sqlite) {
                // B starts only once A is inside its transaction (or waiting for the test's feed row there).
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            }
            java.util.concurrent.Future<ScanResult> b = starter.submit(() -> index.scan(root.resolve("y"),
                    ScanOptions.defaults().withListener(startedB)));
            if (!sqlite) {
                assertThat(bStarted.await(60, TimeUnit.SECONDS)).isTrue();
            }
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
            while (System.nanoTime() < until) {   // B would commit within this time if nothing held it
                ChangeBatch page = index.changesSince(cursor, 100);
                seen.addAll(page.changes());
                cursor = page.nextCursor();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertThat(described(seen, root)).doesNotContain("ADDED new.txt", "ADDED y/new.txt");
            if (sqlite) {
                try (Statement s = holder.createStatement()) {
                    s.execute("COMMIT");
                }
            } else {
                holder.rollback();              // A's insert goes ahead with the number it was given
            }
            long scanA = a.get(2, TimeUnit.MINUTES).scanId();
            long scanB = b.get(2, TimeUnit.MINUTES).scanId();
            starter.shutdown();
            seen.addAll(drain(index, cursor));
            assertThat(described(seen, root)).contains("ADDED new.txt", "ADDED y/new.txt").doesNotHaveDuplicates();
            if (!sqlite) {
                // On SQLite neither could begin while the lock was held, so either may have gone first.
                List<String> feed = seen.stream().map(c -> c.seq() + " " + c.type() + " " + c.path() + " scan "
                        + c.scanId()).toList();
                assertThat(seen.get(0).seq()).isEqualTo(held);
                if ("true".equals(database().settings().get("fsindex.serializableWrites"))) {
                    // At SERIALIZABLE the engine may fail A's waiting transaction (a serialization failure against
                    // what B committed while A waited), and A's retry numbers its changes after B's: still in commit
                    // order, none seen before its commit and none skipped (checked above and here).
                    assertContiguous(seen);
                    return;
                }
                assertThat(seen.get(0).scanId()).as("A's held transaction kept the number it was given: %s", feed)
                        .isEqualTo(scanA);
                // (B may have found nothing left to change if A's scan listed y first.)
                assertThat(seen.stream().filter(c -> c.scanId() == scanB).mapToLong(Change::seq).min()
                        .orElse(Long.MAX_VALUE)).as("B waited for A's held transaction to commit: %s", feed)
                        .isGreaterThan(held);
            }
        }
        assertContiguous(seen);
    }

    /**
     * A directory too large to hold whole is listed and applied in parts of a few thousand entries, each in its own
     * transaction. Every entry still gets one ADDED change, files deleted from it are found missing once all parts
     * are in, a rename inside it keeps the row's id, and an unchanged rescan records nothing.
     */
    @Test
    void aDirectoryListedInPartsRecordsEachChangeOnceAndFindsWhatIsGone() throws Throwable {
        directoryListedInParts(4_096);
    }

    private void directoryListedInParts(int partEntries) throws Exception {
        int n = 9_100;                          // three parts of at most 4,096 entries
        String[] spec = new String[n + 3];
        spec[0] = "big/";
        spec[1] = "big/sub/";
        spec[2] = "big/sub/inner.txt";
        for (int i = 0; i < n; i++) {
            spec[i + 3] = "big/f" + i + ".txt";
        }
        Path root = tree(spec);
        FsIndex index = openIndex();
        IndexInternals.of(index).listingPartEntries(partEntries);
        Recording cold = new Recording();
        ScanResult first = index.scan(root, ScanOptions.defaults().withListener(cold));
        List<Change> fed = drain(index, 0);
        assertThat(first.added()).isEqualTo(fed.size());    // the entries below the root, and the root's trunk
        assertThat(cold.changes).isEqualTo(fed);
        assertThat(described(fed, root)).hasSize(n + 3).doesNotHaveDuplicates().allMatch(d -> d.startsWith("ADDED"));
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));

        long cursor = index.changeFeedEnd();
        long renamedId = index.lookup(root.resolve("big/f17.txt")).orElseThrow().id();
        for (int i = 0; i < 7; i++) {
            Files.delete(root.resolve("big/f" + (1000 * i + 3) + ".txt"));
        }
        Files.move(root.resolve("big/f17.txt"), root.resolve("big/renamed.txt"));
        Files.writeString(root.resolve("big/f8000.txt"), "longer than it was before");
        Trees.create(root, "big/new1.txt", "big/new2.txt");
        Recording churn = new Recording();
        ScanResult second = index.scan(root, ScanOptions.defaults().withListener(churn));
        fed = drain(index, cursor);
        assertThat(churn.changes).isEqualTo(fed);
        List<String> expected = new ArrayList<>(List.of("MODIFIED big", "MOVED big/f17.txt -> big/renamed.txt",
                "MODIFIED big/f8000.txt", "ADDED big/new1.txt", "ADDED big/new2.txt"));
        for (int i = 0; i < 7; i++) {
            expected.add("DELETED big/f" + (1000 * i + 3) + ".txt");
        }
        assertThat(described(fed, root)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(second.deleted()).isEqualTo(7);
        assertThat(index.lookup(root.resolve("big/renamed.txt")).orElseThrow().id()).isEqualTo(renamedId);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));

        cursor = index.changeFeedEnd();
        ScanResult third = index.scan(root);
        assertThat(described(drain(index, cursor), root)).isEmpty();
        assertThat(third.unchanged()).isEqualTo(1 + n + 3 - 7 + 2);       // the root, and every entry below it
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    private static void assertContiguous(List<Change> changes) {
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).seq()).as("change after %s", changes.get(i - 1))
                    .isEqualTo(changes.get(i - 1).seq() + 1);
        }
    }

    /**
     * Four processes scan overlapping parts of one tree while it changes, and this JVM reads the feed all along: it
     * gets every number once, in order, and replaying what it got gives exactly the index's final state.
     */
    @Test
    void aConsumerAlongsideFourScanningProcessesGetsEveryChangeOnceInOrder() throws Exception {
        Path root = tree("top.txt", "a/", "a/x.txt", "a/b/", "a/b/y.txt", "c/", "c/z.txt");
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(database().builder(prefix).build());
        List<Change> seen = new ArrayList<>();
        AtomicBoolean scanning = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> {
            long cursor = 0;
            while (true) {
                boolean last = !scanning.get();
                ChangeBatch page = index.changesSince(cursor, 50);
                assertThat(page.resyncNeeded()).isFalse();
                seen.addAll(page.changes());
                cursor = page.nextCursor();
                if (last && page.changes().isEmpty()) {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        });
        List<Throwable> consumerFailure = new CopyOnWriteArrayList<>();
        consumer.setUncaughtExceptionHandler((t, e) -> consumerFailure.add(e));
        consumer.start();

        ChildJvm children = new ChildJvm(tmp, database().properties(prefix));
        try {
            children.start("full", root, 3);
            children.start("a", root.resolve("a"), 3);
            children.start("a-b", root.resolve("a/b"), 3);
            children.start("c", root.resolve("c"), 3);
            children.releaseWhenAllReady();
            children.churnUntilAllSucceed(new TreeChurn(root, List.of("", "a", "a/b", "c")));
        } finally {
            children.destroyAll();
        }
        index.scan(root);
        scanning.set(false);
        consumer.join(TimeUnit.MINUTES.toMillis(2));
        assertThat(consumerFailure).isEmpty();

        assertThat(seen).isNotEmpty();
        assertThat(seen.get(0).seq()).isEqualTo(1);
        assertContiguous(seen);
        assertThat(replay(seen)).isEqualTo(inIndexById(new RawIndex(database(), prefix)));
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /** What a consumer that applies each change in order believes the index holds: path by id. */
    private static Map<Long, String> replay(List<Change> changes) {
        Map<Long, String> model = new HashMap<>();
        for (Change c : changes) {
            String path = c.path().toString();
            switch (c.type()) {
                case ADDED, MODIFIED -> model.put(c.id(), path);
                case DELETED -> model.remove(c.id());
                case MOVED -> {
                    String from = c.previousPath().toString() + "/";
                    model.replaceAll((id, p) -> p.startsWith(from) ? path + "/" + p.substring(from.length()) : p);
                    model.put(c.id(), path);
                }
            }
        }
        return model;
    }

    /** Every entry in the index (orphans are not), path by id, built from the raw rows. */
    private static Map<Long, String> inIndexById(RawIndex raw) throws Exception {
        Map<Long, Object[]> rows = new HashMap<>();
        raw.forEachRow("SELECT id, COALESCE(parent, 0), name, CASE WHEN gone_at IS NULL THEN 0 ELSE 1 END"
                + " FROM ${prefix}files", rs -> rows.put(rs.getLong(1),
                new Object[] {rs.getLong(2), rs.getString(3), rs.getInt(4) != 0}));
        Map<Long, String> out = new HashMap<>();
        for (Long id : rows.keySet()) {
            String path = pathOf(rows, id);
            if (path != null) {
                out.put(id, path);
            }
        }
        return out;
    }

    private static String pathOf(Map<Long, Object[]> rows, long id) {
        Object[] row = rows.get(id);
        if ((Boolean) row[2]) {
            return null;                               // an orphan, or below one
        }
        long parent = (Long) row[0];
        if (parent == 0) {
            return (String) row[1];
        }
        String above = pathOf(rows, parent);
        return above == null ? null : Path.of(above).resolve((String) row[1]).toString();
    }
}
