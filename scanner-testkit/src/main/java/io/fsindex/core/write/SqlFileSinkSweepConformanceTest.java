package io.fsindex.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink;
import io.fsindex.api.ScanResult;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sweeps meeting other scans, staged on the sink itself: a newer scan sweeping a directory an older one is still
 * writing below, sweeps of nested subtrees and of one file by two scans at once, each entry reported deleted once, and
 * what an older scan sweeps while a newer one finds it again added back. A dialect's test extends this class like the
 * other conformance suites.
 */
public abstract class SqlFileSinkSweepConformanceTest extends SqlFileSinkFixture {

    /**
     * A newer scan sweeping a directory it found gone must take along what an older scan, still owning that
     * directory's listing, writes below it meanwhile: every such row reported deleted and taken out with the rest.
     * The sweep locks the directory's row before it reads what is below (the older scan's owner check holds a share
     * lock on it until its transaction ends), so it waits and then reads the older scan's rows. Reading first would
     * miss them: they would stay in the index below a directory that left it, never reported deleted.
     */
    @Test
    void aSweepWaitsForAnOlderScanStillWritingBelowTheDirectoryItSweeps() throws Exception {
        sweepWhileAnOlderScanWritesBelow("d", "d/late.txt");
    }

    /**
     * The same for an older scan writing below a directory deeper in the swept subtree: the sweep locks every level
     * of the subtree before it reads the level below, not only its top, or the older scan's rows two levels down
     * would be left in the index below a directory that left it, with no deletion in the feed.
     */
    @Test
    void aSweepWaitsForAnOlderScanStillWritingDeepBelowTheDirectoryItSweeps() throws Exception {
        sweepWhileAnOlderScanWritesBelow("d/sub", "d/sub/late.txt");
    }

    private void sweepWhileAnOlderScanWritesBelow(String writtenBelow, String late) throws Exception {
        Path root = tree("d/x.txt", "d/sub/y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dirId = index.lookup(root.resolve(writtenBelow)).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Trees.delete(root.resolve("d"));
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            long older = IndexInternals.of(index).insertScanRow(olderC, root.toString());
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            applyListing(newer, rootId, 0, root);

            CountDownLatch writing = new CountDownLatch(1);
            CountDownLatch commit = new CountDownLatch(1);
            Future<?> olderListing = executor.submit(() -> IndexInternals.of(index).db().write(olderC, c -> {
                // What the older scan's listing of a directory does in its transaction: the owner check, then an
                // insert below the directory.
                try (ResultSet rs = Statements.ForIds.bind(IndexInternals.of(index).statements().owners.forCount(1).prepare(c),
                        new long[] {dirId}, 1).statement.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(2)).as("no newer scan has listed the directory").isLessThan(older);
                }
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO " + prefix() + "files (parent, name, kind, scan_id) VALUES ("
                            + dirId + ", 'late.txt', 'FILE', " + older + ")");
                }
                writing.countDown();
                try {
                    assertThat(commit.await(60, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return null;
            }));
            assertThat(writing.await(60, TimeUnit.SECONDS)).isTrue();
            Future<?> sweep = executor.submit(() -> {
                newer.finish(true);
                return null;
            });
            String waits = lockWaitsQuery(prefix());
            if (waits != null) {
                assertThat(awaitLockWaits(waits, 1, sweep)).as("the sweep must wait for the older scan's transaction")
                        .isTrue();
            }
            commit.countDown();
            olderListing.get(60, TimeUnit.SECONDS);
            sweep.get(60, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }

        assertThat(index.lookup(root.resolve(late))).isEmpty();
        assertThat(rowsBelowDirectoriesThatLeft()).as("rows left in the index below a directory that left it")
                .isZero();
        assertThat(deletedSince(index, cursor, root)).containsExactlyInAnyOrder("d", "d/x.txt", "d/sub",
                "d/sub/y.txt", late);
    }

    /**
     * Two scans sweeping nested subtrees at once report each entry deleted once: here an older partial scan sweeps
     * a/x while a newer full scan sweeps a, which holds it. The older sweep's transaction has marked a/x's rows gone
     * but not yet committed (it waits for the feed's head, held here) when the newer sweep reaches them: it must
     * wait for them and read what the older one made of them, not report them deleted a second time.
     */
    @Test
    void sweepsOfNestedSubtreesAtOnceReportEachEntryDeletedOnce() throws Exception {
        Path root = tree("a/g.txt", "a/x/f1.txt", "a/x/f2.txt", "a/x/y/f3.txt", "keep.txt");
        Path a = root.resolve("a");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long aId = index.lookup(a).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            Trees.delete(a.resolve("x"));
            SqlFileSink older = sink(index, olderC, IndexInternals.of(index).insertScanRow(olderC, a.toString()));
            applyListing(older, aId, rootId, a);
            Trees.delete(a);
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            applyListing(newer, rootId, 0, root);

            finishOneWhileTheOtherWaits(older, newer);
        }

        assertThat(deletedSince(index, cursor, root)).containsExactlyInAnyOrder("a", "a/g.txt", "a/x",
                "a/x/f1.txt", "a/x/f2.txt", "a/x/y", "a/x/y/f3.txt");
        assertThat(rowsBelowDirectoriesThatLeft()).isZero();
        assertThat(index.scan(root).deleted()).isZero();
    }

    /**
     * A file an older scan found deleted, in a directory a newer scan then found deleted, is reported deleted once
     * when both sweep at once, and the older sweep does not fail when the newer one has already purged the
     * directory (no orphan retention here): the newer sweep's transaction, waiting for the feed's head, has taken
     * the directory and the file out; the older sweep must wait for the file's row and then find it gone, not report
     * it again nor look for a path through a directory that no longer exists.
     */
    @Test
    void aFileSweptByTwoScansAtOnceIsReportedOnceEvenWhenItsDirectoryIsPurged() throws Exception {
        Path root = tree("d/f.txt", "d/g.txt", "keep.txt");
        Path d = root.resolve("d");
        FsIndex index = openIndex(b -> b.orphanRetention(Duration.ZERO));
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            Files.delete(d.resolve("f.txt"));
            SqlFileSink older = sink(index, olderC, IndexInternals.of(index).insertScanRow(olderC, root.toString()));
            applyListing(older, dId, rootId, d);
            Trees.delete(d);
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            applyListing(newer, rootId, 0, root);

            finishOneWhileTheOtherWaits(newer, older);
        }

        assertThat(deletedSince(index, cursor, root)).containsExactlyInAnyOrder("d", "d/f.txt", "d/g.txt");
        assertThat(index.scan(root).deleted()).isZero();
    }

    /**
     * A file an older scan found missing and sweeps while a newer scan finds it again is back in the index, and the
     * feed says so: deleted by the older scan, then added by the newer one. Here the file was moved out and back
     * (same inode, same time: unchanged to the newer scan, which only unmarks its row). The older sweep has taken the
     * row out but not yet committed (it waits for the feed's head, held here) when the newer scan's listing, which
     * read the row still in the index, writes it: that write must see the row gone and bring it back as added, not
     * silently (the feed would say the file is deleted for ever) nor as modified (a change to an entry the feed says
     * is gone).
     */
    @Test
    void aFileAnOlderScanSweepsWhileANewerScanFindsItAgainIsAddedBack() throws Exception {
        Path root = tree("d/f.txt", "d/g.txt", "keep.txt");
        Path d = root.resolve("d");
        Path f = d.resolve("f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long fId = index.lookup(f).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Path away = Files.createTempDirectory(root.getParent(), "away");
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            Files.move(f, away.resolve("f.txt"));
            SqlFileSink older = sink(index, olderC, IndexInternals.of(index).insertScanRow(olderC, root.toString()));
            applyListing(older, dId, rootId, d);
            Files.move(away.resolve("f.txt"), f);
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            List<WalkedEntry> listingOfD = new NioWalker().list(d).entries();

            whileAnOlderSweepIsUncommitted(older, () -> newer.applyGroup(List.of(d),
                    List.of(new FileSink.Directory(dId, rootId, "d", d)), List.of(listingOfD)));
            newer.finish(true);
        }

        assertThat(index.lookup(f)).isPresent();
        assertThat(index.changesSince(cursor, 100).changes()).filteredOn(ch -> ch.id() == fId)
                .extracting(ch -> ch.type().name()).containsExactly("DELETED", "ADDED");
        ScanResult again = index.scan(root);        // d's own time changed with the moves, which this scan records
        assertThat(again.added() + again.deleted()).isZero();
    }

    /**
     * The same for the root of a newer partial scan: a directory an older full scan found missing, and sweeps while
     * the newer scan of that very directory begins there, is recorded as added back, with its contents, not as
     * unchanged (it was moved out and back, so it looks the same). The newer scan's read of its root's row must wait
     * for the older sweep and see the row gone.
     */
    @Test
    void aRootAnOlderScanSweepsWhileANewerScanBeginsThereIsAddedBack() throws Exception {
        Path root = tree("x/f.txt", "keep.txt");
        Path x = root.resolve("x");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long xId = index.lookup(x).orElseThrow().id();
        long fId = index.lookup(x.resolve("f.txt")).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Path away = Files.createTempDirectory(root.getParent(), "away");
        NioWalker walker = new NioWalker();
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            Files.move(x, away.resolve("x"));
            SqlFileSink older = sink(index, olderC, IndexInternals.of(index).insertScanRow(olderC, root.toString()));
            older.applyGroup(List.of(root), List.of(new FileSink.Directory(rootId, 0,
                    root.getFileName().toString(), root)), List.of(walker.list(root).entries()));
            Files.move(away.resolve("x"), x);
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, x.toString()));
            List<WalkedEntry> trunk = trunkOf(x);
            WalkedEntry top = new WalkedEntry("x", walker.stat(x));

            FileSink.Applied begun = whileAnOlderSweepIsUncommitted(older, () -> newer.begin(trunk, top, x));
            newer.applyGroup(List.of(x), List.of(begun.subdirectories().get(0)), List.of(walker.list(x).entries()));
            newer.finish(true);
        }

        assertThat(index.lookup(x.resolve("f.txt"))).isPresent();
        List<Change> changes = index.changesSince(cursor, 100).changes();
        assertThat(changes).filteredOn(ch -> ch.id() == xId).extracting(ch -> ch.type().name())
                .containsExactly("DELETED", "ADDED");
        assertThat(changes).filteredOn(ch -> ch.id() == fId).extracting(ch -> ch.type().name())
                .containsExactly("DELETED", "ADDED");
    }

    /** The trunk a scan of {@code root} begins with, as the scan builds it: every directory above the root. */
    private static List<WalkedEntry> trunkOf(Path root) throws java.io.IOException {
        NioWalker walker = new NioWalker();
        List<WalkedEntry> trunk = new java.util.ArrayList<>();
        Path prefix = root.getRoot();
        trunk.add(new WalkedEntry(prefix.toString(), walker.stat(prefix)));
        for (int i = 0; i < root.getNameCount() - 1; i++) {
            prefix = prefix.resolve(root.getName(i).toString());
            trunk.add(new WalkedEntry(root.getName(i).toString(), walker.stat(prefix)));
        }
        return trunk;
    }

    /**
     * Finishes {@code first} and then {@code second}, each in its own thread, {@code second}'s sweep running while
     * {@code first}'s is done but not committed where the engine lets write transactions run at once.
     */
    private void finishOneWhileTheOtherWaits(SqlFileSink first, SqlFileSink second) throws Exception {
        whileAnOlderSweepIsUncommitted(first, () -> second.finish(true));
    }

    /**
     * Finishes {@code older} and runs {@code newer}, each in its own thread, and returns what {@code newer} returned;
     * where the engine lets write transactions run at once, {@code older} is held just before its commit ({@link
     * #holdingTheFeedHead}) until {@code newer} waits for a row lock too, so {@code newer} runs while {@code older}'s
     * sweep is done but not committed. Elsewhere the two run one after the other.
     */
    private <T> T whileAnOlderSweepIsUncommitted(SqlFileSink older, java.util.concurrent.Callable<T> newer)
            throws Exception {
        List<T> result = new java.util.ArrayList<>();
        holdingTheFeedHead(waits -> {
            ExecutorService executor = Executors.newFixedThreadPool(2);
            try {
                Future<?> olderDone = executor.submit(() -> older.finish(true));
                if (waits != null) {
                    assertThat(awaitLockWaits(waits, 1, olderDone)).as("the older sweep waits for the feed's head")
                            .isTrue();
                } else {
                    olderDone.get(60, TimeUnit.SECONDS);
                }
                Future<T> newerDone = executor.submit(newer);
                if (waits != null) {
                    assertThat(awaitLockWaits(waits, 2, newerDone)).as("the newer work waits for the older's rows")
                            .isTrue();
                }
                return () -> {
                    olderDone.get(60, TimeUnit.SECONDS);
                    result.add(newerDone.get(60, TimeUnit.SECONDS));
                    executor.shutdownNow();
                };
            } catch (Exception | AssertionError e) {
                executor.shutdownNow();
                throw e;
            }
        });
        return result.get(0);
    }

    /** What runs while the test holds the feed's head: it returns what to run once the head is released. */
    private interface WhileHoldingTheHead {
        /** @param waits the {@link #lockWaitsQuery}, null where write transactions never run at once */
        Finish run(String waits) throws Exception;
    }

    private interface Finish {
        void run() throws Exception;
    }

    /**
     * Runs {@code work} while this test holds the feed's head, which a write transaction locks last (just before it
     * commits), where write transactions run at once; then releases it and runs what {@code work} returned. So a
     * transaction can be held done but uncommitted while another runs. Where writers are serialised (SQLite), holds
     * nothing: {@code work} runs the transactions one after the other.
     */
    private void holdingTheFeedHead(WhileHoldingTheHead work) throws Exception {
        String waits = lockWaitsQuery(prefix());
        if (waits == null) {
            work.run(null).run();
            return;
        }
        Finish finish;
        try (Connection head = new RawIndex(database(), prefix()).connect()) {
            head.setAutoCommit(false);
            try (Statement s = head.createStatement(); ResultSet rs = s.executeQuery("SELECT last_seq FROM "
                    + prefix() + "feed WHERE id = 1 FOR UPDATE")) {
                assertThat(rs.next()).isTrue();
            }
            finish = work.run(waits);
            head.commit();
        }
        finish.run();
    }

    /** Applies the listing of {@code dir} (row {@code id}, below row {@code parent}) as read now, in one group. */
    private static void applyListing(SqlFileSink sink, long id, long parent, Path dir) throws Exception {
        sink.applyGroup(List.of(dir), List.of(new FileSink.Directory(id, parent, dir.getFileName().toString(), dir)),
                List.of(new NioWalker().list(dir).entries()));
    }

    private List<String> deletedSince(FsIndex index, long cursor, Path root) {
        return index.changesSince(cursor, 1000).changes().stream().filter(ch -> ch.type() == ChangeType.DELETED)
                .map(ch -> root.relativize(ch.path()).toString()).toList();
    }

    private long rowsBelowDirectoriesThatLeft() throws SQLException {
        return new RawIndex(database(), prefix()).queryLong("SELECT count(*) FROM " + prefix() + "files f JOIN "
                + prefix() + "files p ON f.parent = p.id WHERE f.gone_at IS NULL AND p.gone_at IS NOT NULL");
    }
}
