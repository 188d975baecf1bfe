package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileEntry;
import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.ScanScope;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import io.fsindex.core.watch.WatchTestHooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Watching a tree ({@link FsIndex#watch}) on the real filesystem and a real database: the index follows the tree
 * through churn, lost events and unwatchable directories are reported and answered with rescans, moves keep ids, a
 * root that goes away deletes nothing, and full scans from another process meanwhile break no guarantee. Every
 * wait polls for an outcome with a generous deadline; no test asserts how fast the watch is.
 */
public abstract class WatchConformanceTest extends IndexTest {
    private static final Duration CONVERGE = Duration.ofSeconds(60);
    private final List<AutoCloseable> closing = new ArrayList<>();
    /** What the watch reported through the listener. */
    private final List<ScanError> reports = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeWatches() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private WatchOptions options() {
        return WatchOptions.defaults().withSettle(Duration.ofMillis(100)).withListener(new ScanListener() {
            @Override
            public void error(ScanError error) {
                reports.add(error);
            }
        });
    }

    private IndexWatch watching(IndexWatch watch) {
        closing.add(watch);
        return watch;
    }

    /** Waits until {@code condition} holds; fails with {@code what} after {@link #CONVERGE}. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s for: %s", CONVERGE, what).isLessThan(deadline);
            Thread.sleep(50);    // the watch works on threads of its own: only polling shows its progress
        }
    }

    /** Waits until the index under {@code root} equals the tree on disk. */
    private static void awaitConverged(FsIndex index, Path root) throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        List<String> diff = CampaignChecks.indexEqualsTree(index, root);
        while (!diff.isEmpty()) {
            assertThat(System.nanoTime()).as("the index did not converge: %s", diff).isLessThan(deadline);
            Thread.sleep(50);
            diff = CampaignChecks.indexEqualsTree(index, root);
        }
    }

    private static Map<String, Long> idsBelow(FsIndex index, Path dir) {
        Map<String, Long> out = new TreeMap<>();
        for (FileEntry e : index.children(dir)) {
            out.put(e.name(), e.id());
        }
        return out;
    }

    private static List<Change> feed(FsIndex index) {
        List<Change> all = new ArrayList<>();
        long cursor = 0;
        while (true) {
            var batch = index.changesSince(cursor, 10_000);
            if (batch.changes().isEmpty()) {
                return all;
            }
            all.addAll(batch.changes());
            cursor = batch.nextCursor();
        }
    }

    // Churn while watching, then quiescence: the index equals the tree and the feed holds every change once, in
    // order (FeedAudit replays it against the index).
    @Test
    void churnWhileWatchingThenQuiescenceGivesTheTreeAndAFeedThatReplaysToIt() throws Exception {
        Path root = tree();
        SeededChurn churn = new SeededChurn(root, List.of("p", "q"), new Random(22));
        churn.populate(300);
        FsIndex index = openIndex();
        try (FeedAudit audit = new FeedAudit(index)) {
            IndexWatch watch = watching(index.watch(root, options()));
            for (int i = 0; i < 60; i++) {
                churn.change(5);
                Thread.sleep(20);
            }
            awaitConverged(index, root);
            assertThat(watch.state().scans()).isGreaterThan(1);
            watch.close();
            audit.catchUp();
            assertThat(audit.problems(CampaignChecks.indexById(new RawIndex(database(), prefix())))).isEmpty();
        }
        try (IndexInvariants invariants = new IndexInvariants(database(), prefix())) {
            assertThat(invariants.staleRows()).isEmpty();
        }
        assertThat(overlappingDirectoryScans(index)).as("directory scans that ran at the same time").isPositive();
    }

    /** How many pairs of the watch's completed directory scans ran at the same time. */
    private static long overlappingDirectoryScans(FsIndex index) {
        List<ScanRecord> scans = index.info(10_000).recentScans().stream()
                .filter(r -> "COMPLETED".equals(r.state()) && FsIndex.DIRECTORY_SCAN.equals(r.message())).toList();
        long pairs = 0;
        for (int i = 0; i < scans.size(); i++) {
            for (int j = i + 1; j < scans.size(); j++) {
                ScanRecord a = scans.get(i);
                ScanRecord b = scans.get(j);
                if (a.startedAt().isBefore(b.finishedAt()) && b.startedAt().isBefore(a.finishedAt())) {
                    pairs++;
                }
            }
        }
        return pairs;
    }

    // A recent complete scan lets the watch skip its initial scan; changes made before the watch began are then
    // unseen until lost events (forced here) make it rescan the subtree, which it reports.
    @Test
    void lostEventsAreReportedAndTheSubtreeIsScannedAgain() throws Exception {
        Path root = tree("a/", "a/b/", "a/b/old.txt", "a/x.txt", "c/", "c/y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Files.writeString(root.resolve("a/x.txt"), "changed before the watch");
        Trees.create(root, "a/b/new.txt");
        Trees.delete(root.resolve("a/b/old.txt"));
        IndexWatch watch = watching(index.watch(root, options().withSkipInitialScanWithin(Duration.ofHours(1))));
        assertThat(watch.state().scans()).as("the initial scan was skipped").isZero();
        assertThat(watch.state().lastFullRescan()).isNotNull();
        assertThat(index.lookup(root.resolve("a/b/new.txt"))).isEmpty();

        WatchTestHooks.overflow(watch, root.resolve("a"));
        awaitConverged(index, root);
        await("the report", () -> reports.stream().anyMatch(r -> r.reason() == ScanError.Reason.EVENTS_LOST
                && r.path().equals(root.resolve("a"))));
        assertThat(watch.state().fallbacks()).isEqualTo(1);
    }

    // The kernel's watch limit (lowered for the test): what cannot be watched is reported with what to do, and
    // scanned periodically instead, so changes there still reach the index.
    @Test
    void directoriesBeyondTheWatchLimitAreReportedAndRescannedPeriodically() throws Exception {
        Path root = tree("a/", "a/b/", "a/b/1.txt", "d/", "d/e/", "d/e/2.txt", "f/", "f/3.txt");
        FsIndex index = openIndex();
        IndexWatch watch = watching(WatchTestHooks.startWithWatchLimit(index, root,
                options().withUnwatchedRescanEvery(Duration.ofMillis(500)), 2));
        assertThat(watch.state().watchedDirectories()).isEqualTo(2);
        assertThat(watch.state().unwatchedSubtrees()).isPositive();
        assertThat(reports).anyMatch(r -> r.reason() == ScanError.Reason.NOT_WATCHED
                && r.message().contains("fs.inotify.max_user_watches"));
        awaitConverged(index, root);

        Trees.create(root, "a/b/later.txt", "d/e/later/", "d/e/later/4.txt", "f/later.txt");
        Trees.delete(root.resolve("d/e/2.txt"));
        Files.writeString(root.resolve("f/3.txt"), "rewritten");
        awaitConverged(index, root);
        assertThat(watch.state().fallbacks()).isPositive();
    }

    // A directory of 10,000 files renamed inside the watched tree keeps its id and every file's.
    @Test
    void aDirectoryOfTenThousandFilesRenamedInsideTheTreeKeepsEveryId() throws Exception {
        Path root = tree("big/", "elsewhere/");
        for (int i = 0; i < 10_000; i++) {
            Files.createFile(root.resolve("big/f" + i));
        }
        FsIndex index = openIndex();
        IndexWatch watch = watching(index.watch(root, options()));
        long bigId = index.lookup(root.resolve("big")).orElseThrow().id();
        Map<String, Long> ids = idsBelow(index, root.resolve("big"));
        assertThat(ids).hasSize(10_000);

        Files.move(root.resolve("big"), root.resolve("elsewhere/renamed"));
        awaitConverged(index, root);
        assertThat(index.lookup(root.resolve("elsewhere/renamed")).orElseThrow().id()).isEqualTo(bigId);
        assertThat(idsBelow(index, root.resolve("elsewhere/renamed"))).isEqualTo(ids);
        assertThat(watch.state().fallbacks()).isZero();
    }

    // A directory moved and written to at once (its mtime moves on before the watch scans) keeps its id and its files'.
    @Test
    void aDirectoryMovedAndWrittenToAtOnceKeepsItsId() throws Exception {
        Path root = tree("drafts/", "drafts/a.txt", "sent/");
        FsIndex index = openIndex();
        IndexWatch watch = watching(index.watch(root, options()));
        long drafts = index.lookup(root.resolve("drafts")).orElseThrow().id();
        long a = index.lookup(root.resolve("drafts/a.txt")).orElseThrow().id();

        Files.move(root.resolve("drafts"), root.resolve("sent/drafts"));
        Files.writeString(root.resolve("sent/drafts/b.txt"), "written right after the move");
        awaitConverged(index, root);
        assertThat(index.lookup(root.resolve("sent/drafts")).orElseThrow().id()).isEqualTo(drafts);
        assertThat(index.lookup(root.resolve("sent/drafts/a.txt")).orElseThrow().id()).isEqualTo(a);
        assertThat(watch.state().fallbacks()).isZero();
    }

    // Directories the stored rules exclude are not registered, neither at the start nor when created later, so they
    // cost no inotify watch and their changes no event; the watch follows a change of the rules.
    @Test
    void directoriesTheRulesExcludeAreNotRegistered() throws Exception {
        Path root = tree("cache/", "cache/a/", "cache/a/b/", "kept/", "kept/x/");
        FsIndex index = openIndex();
        index.setScope(root, ScanScope.defaults().withExcludes("cache/", "tmp/"));
        IndexWatch watch = watching(index.watch(root, options()));
        assertThat(watch.state().watchedDirectories()).as("root, kept, kept/x").isEqualTo(3);

        Trees.create(root, "kept/tmp/", "kept/tmp/deeper/", "kept/new/", "cache/a/c/");
        await("kept/new indexed", () -> index.lookup(root.resolve("kept/new")).isPresent());
        await("no work pending", () -> watch.state().pendingDirectories() == 0);
        assertThat(watch.state().watchedDirectories()).as("kept/new added, kept/tmp left out").isEqualTo(4);
        assertThat(index.lookup(root.resolve("kept/tmp"))).isEmpty();

        index.setScope(root, ScanScope.defaults().withExcludes("tmp/"));
        Trees.create(root, "kept/later.txt");            // a round of scans reads the rules again
        await("cache indexed under the new rules", () -> index.lookup(root.resolve("cache/a/c")).isPresent());
        await("cache registered", () -> watch.state().watchedDirectories() == 8);
        Trees.create(root, "cache/a/c/file.txt");
        await("an event in cache followed", () -> index.lookup(root.resolve("cache/a/c/file.txt")).isPresent());
        assertThat(index.lookup(root.resolve("kept/tmp"))).isEmpty();
    }

    // The periodic safety rescan (off by default) scans the whole tree again: changes no event announced (made
    // here before the watch began, its initial scan skipped) reach the index, and no fallback is reported.
    @Test
    void thePeriodicSafetyRescanFindsWhatNoEventAnnounced() throws Exception {
        Path root = tree("a/", "a/b/", "a/b/old.txt", "c/");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.create(root, "a/b/new.txt", "c/d/");
        Trees.delete(root.resolve("a/b/old.txt"));
        // Taken before the watch starts: on a busy machine its first rescan can be over before it could be read.
        java.time.Instant before = java.time.Instant.now();
        IndexWatch watch = watching(index.watch(root, options().withSkipInitialScanWithin(Duration.ofHours(1))
                .withRescanEvery(Duration.ofMillis(500))));
        awaitConverged(index, root);
        // The rescan's time is noted once its scan returns, just after its rows are committed.
        await("the rescan's time noted", () -> {
            java.time.Instant last = watch.state().lastFullRescan();
            return last != null && last.isAfter(before);
        });
        assertThat(watch.state().fallbacks()).isZero();
        assertThat(reports).isEmpty();
    }

    // A tree on a network filesystem (the file-store type the watch reads is NFS here): reported with what that
    // means, and scanned whole every unwatchedRescanEvery, so changes no event announced reach the index.
    @Test
    void aTreeOnANetworkFilesystemIsReportedAndRescannedPeriodically() throws Exception {
        Path root = tree("a/", "a/1.txt", "b/");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.create(root, "a/remote.txt", "b/c/", "b/c/2.txt");   // as if written by another machine: no event here
        IndexWatch watch = watching(WatchTestHooks.startOnFileStoreType(index, root, options()
                .withSkipInitialScanWithin(Duration.ofHours(1)).withUnwatchedRescanEvery(Duration.ofMillis(500)),
                "nfs4"));
        assertThat(index.lookup(root.resolve("a/remote.txt"))).isEmpty();
        await("the report", () -> reports.stream().anyMatch(r -> r.reason() == ScanError.Reason.NOT_WATCHED
                && r.path().equals(root) && r.message().contains("nfs4")));
        awaitConverged(index, root);
        assertThat(watch.state().fallbacks()).isEqualTo(1);
        assertThat(watch.state().lastFullRescan()).isNotNull();
    }

    // A directory the root's stored rules exclude: its events ask for no scan and no report, and it stays out.
    @Test
    void changesInAnExcludedDirectoryAreLeftOutQuietly() throws Exception {
        Path root = tree("cache/", "kept/");
        FsIndex index = openIndex();
        index.setScope(root, ScanScope.defaults().withExcludes("cache/"));
        IndexWatch watch = watching(index.watch(root, options()));
        Trees.create(root, "cache/junk.bin");
        Trees.create(root, "kept/new.txt");
        await("the kept file indexed", () -> index.lookup(root.resolve("kept/new.txt")).isPresent());
        await("no work pending", () -> watch.state().pendingDirectories() == 0);
        assertThat(reports).as("reports").isEmpty();
        assertThat(index.lookup(root.resolve("cache"))).isEmpty();
    }

    // What is made in a new directory before the watch registers it gives no event, and another scan may have
    // recorded the directory, still empty, before that: the watch still lists the directory once it is registered.
    @Test
    void entriesMadeInANewDirectoryBeforeItIsWatchedAreIndexed() throws Exception {
        Path root = tree("x", "y.txt");
        FsIndex index = openIndex();
        CountDownLatch registering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        watching(WatchTestHooks.startDelayingRegistration(index, root, options(), dir -> {
            registering.countDown();
            try {
                release.await(CONVERGE.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Files.delete(root.resolve("x"));
        Files.createDirectory(root.resolve("x"));
        assertThat(registering.await(CONVERGE.toSeconds(), TimeUnit.SECONDS)).as("x's registration began").isTrue();
        index.scan(root);                               // another scan finds x a directory, still empty
        Files.createFile(root.resolve("x/made-before-watched.txt"));
        release.countDown();
        awaitConverged(index, root);
        assertThat(index.lookup(root.resolve("x/made-before-watched.txt"))).isPresent();
    }

    // The watched root moved away and back: it is reported, nothing is deleted on a guess, and the watch resumes.
    @Test
    void aWatchedRootRemovedAndRestoredDeletesNothing() throws Exception {
        Path root = tree("a/", "a/1.txt", "2.txt");
        FsIndex index = openIndex();
        IndexWatch watch = watching(index.watch(root, options()));
        Path away = tmp.resolve("away");
        Files.move(root, away);
        await("the root reported missing", () -> watch.state().rootMissing());
        await("the report", () -> reports.stream().anyMatch(r -> r.reason() == ScanError.Reason.NOT_WATCHED
                && r.path().equals(root)));
        Thread.sleep(300);                        // a few settle windows: nothing may be scanned away meanwhile
        assertThat(index.lookup(root.resolve("a/1.txt"))).isPresent();

        Trees.create(away, "while-away.txt");
        Files.move(away, root);
        await("the watch resumed", () -> !watch.state().rootMissing());
        awaitConverged(index, root);
        assertThat(feed(index)).noneMatch(c -> c.type() == ChangeType.DELETED);

        Trees.create(root, "a/after.txt");       // watched again
        awaitConverged(index, root);
    }

    // Full scans of the same root by another process (a child JVM with its own connections) while the watch runs
    // and the tree changes: the index equals the tree, the feed replays to it, nothing is left stale, and every scan
    // of both processes succeeds.
    @Test
    void fullScansFromAnotherProcessWhileTheWatchRunsBreakNoGuarantee() throws Exception {
        Path root = tree();
        SeededChurn churn = new SeededChurn(root, List.of("p", "q"), new Random(7));
        churn.populate(200);
        FsIndex index = openIndex();
        try (FeedAudit audit = new FeedAudit(index)) {
            IndexWatch watch = watching(index.watch(root, options()));
            ChildJvm children = new ChildJvm(Files.createDirectories(tmp.resolve("child")),
                    database().properties(prefix()));
            try {
                children.start("other-process", root, 4);
                children.releaseWhenAllReady();
                while (children.anyAlive()) {
                    churn.change(5);
                    Thread.sleep(25);
                }
                children.assertAllSucceed();
            } finally {
                children.destroyAll();
            }
            awaitConverged(index, root);
            watch.close();
            audit.catchUp();
            assertThat(audit.problems(CampaignChecks.indexById(new RawIndex(database(), prefix())))).isEmpty();
        }
        RawIndex raw = new RawIndex(database(), prefix());
        assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}scans WHERE state = 'COMPLETED'"
                + " AND (message IS NULL OR message <> '" + FsIndex.DIRECTORY_SCAN + "')"))
                .as("the other process's full scans and the watch's initial one").isGreaterThanOrEqualTo(5);
        try (IndexInvariants invariants = new IndexInvariants(database(), prefix())) {
            assertThat(invariants.staleRows()).isEmpty();
        }
    }
}
