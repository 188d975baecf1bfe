package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
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
 * The change feed's order and completeness: every change recorded once, in commit order, by large transactions,
 * directories listed in parts and writers that wait on each other, and a consumer polling alongside four scanning
 * processes that receives every change exactly once, in order, and can replay them into the index's final state. A
 * dialect's test extends this class like {@link FsIndexConformanceTest}.
 */
public abstract class ChangeFeedOrderConformanceTest extends ChangeFeedFixture {

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
        return FeedAudit.pathsById(rows);
    }
}
