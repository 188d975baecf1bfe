package io.fsindex.core.write;

import io.fsindex.core.FsIndex;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.LoadRefused;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.core.scan.Scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanResult;
import io.fsindex.api.WalkedEntry;
import io.fsindex.testkit.IndexTest;
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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Interleavings a real scan produces only by chance, staged on the sink itself with the index's own database,
 * statements and scan rows (hence this package): a wave moving a row the wave before it inserted, and a newer scan
 * claiming a huge directory between two parts of an older scan's listing, a newer scan sweeping a directory an older
 * one is still writing below, another transaction taking a name the scan is about to insert. A dialect's test
 * extends this class like the other conformance suites.
 */
public abstract class SqlFileSinkConformanceTest extends IndexTest {

    /**
     * A query counting the transactions that wait for a row lock while running a statement that names {@code
     * prefix}'s tables, or null for an engine without row locks (SQLite: a second writer waits for the whole
     * database before its transaction begins, so no statement of it can run between another's).
     */
    protected String lockWaitsQuery(String prefix) {
        return null;
    }

    /**
     * Whether the database under test lets the dialect's bulk loader run, if it has one; false for a setup whose
     * server or driver turns loads off (MySQL's {@code LOCAL INFILE} without both switches), which then inserts.
     */
    protected boolean expectsBulkLoads() {
        return true;
    }

    private SqlFileSink sink(FsIndex index, Connection c, long scan) throws Exception {
        return new SqlFileSink(IndexInternals.of(index).db(), IndexInternals.of(index).statements(), c, scan, new NioWalker(), new ScanListener() {
        }, FeedSettings.DEFAULTS, false, Scan.PART_ENTRIES);
    }

    /**
     * One group whose second wave moves a row its first wave inserted must record the row added (at its first place)
     * and then moved. Where added rows are read back when the feed head is locked (PostgreSQL, MySQL, MariaDB), they
     * must be written before the move, or the file would be recorded added at its new place (or the transaction would
     * fail on the count: "recorded 1 added rows where 2 were counted"); on SQLite the new rows' ids come back from the
     * insert and are recorded at once. A file moved on disk between the walker's listings of its old and new
     * directories is what makes this happen in a real scan.
     */
    @Test
    void aRowInsertedByOneWaveAndMovedByTheNextIsAddedThenMoved() throws Exception {
        Path root = tree("a/", "seed.txt");         // not empty, so the scan looks for moves
        Path a = root.resolve("a");
        FsIndex index = openIndex();
        index.scan(root);
        long aId = index.lookup(a).orElseThrow().id();
        long rootId = index.lookup(root).orElseThrow().id();
        long cursor = index.changeFeedEnd();

        Files.writeString(a.resolve("f.txt"), "moves between two listings");
        Path n = Files.createDirectories(a.resolve("n"));
        NioWalker walker = new NioWalker();
        List<WalkedEntry> listingOfA = walker.list(a).entries();
        Files.move(a.resolve("f.txt"), n.resolve("f.txt"));
        List<WalkedEntry> listingOfN = walker.list(n).entries();

        try (Connection c = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, a.toString()));
            List<ListingWaves.GroupResult> results = sink.applyGroup(Arrays.asList(a, n),
                    Arrays.asList(new FileSink.Directory(aId, rootId, "a", a), null),
                    List.of(listingOfA, listingOfN));
            assertThat(results).allSatisfy(r -> assertThat(r.applied()).isNotNull());
            sink.finish(true);
        }

        List<Change> changes = index.changesSince(cursor, 100).changes();
        assertThat(changes).hasSize(3);
        assertThat(changes.subList(0, 2)).extracting(ch -> ch.type() + " " + root.relativize(ch.path()))
                .containsExactlyInAnyOrder("ADDED a/f.txt", "ADDED a/n");
        Change moved = changes.get(2);
        assertThat(moved.type()).isEqualTo(ChangeType.MOVED);
        assertThat(moved.path()).isEqualTo(n.resolve("f.txt"));
        assertThat(moved.previousPath()).isEqualTo(a.resolve("f.txt"));
        Change added = changes.get(0).path().equals(a.resolve("f.txt")) ? changes.get(0) : changes.get(1);
        assertThat(moved.id()).isEqualTo(added.id());
        assertThat(index.lookup(n.resolve("f.txt")).orElseThrow().id()).isEqualTo(moved.id());
    }

    /**
     * The children of a directory the scan inserted itself, and only those, go through the engine's bulk loader where
     * it has one ({@link io.fsindex.core.spi.Dialect#bulkLoader}): nothing can be below such a directory but a newer
     * partial scan's root ({@code ScanRootRaceConformanceTest} has that case). Each row is recorded once, and added to the
     * feed once, whichever way it went in.
     */
    @Test
    void childrenOfADirectoryTheScanInsertedGoThroughTheBulkLoaderOnly() throws Exception {
        Path root = tree("seed.txt", "old/");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long oldId = index.lookup(root.resolve("old")).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Path a = Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/x.txt"), "x");
        Files.writeString(root.resolve("a/b/y.txt"), "y");
        Files.writeString(root.resolve("old/z.txt"), "z");
        NioWalker walker = new NioWalker();

        long loaded;
        boolean loads;
        try (Connection c = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, root.toString()));
            loads = sink.loaderUsable();
            List<ListingWaves.GroupResult> results = sink.applyGroup(
                    Arrays.asList(root, root.resolve("old"), root.resolve("a"), a),
                    Arrays.asList(new FileSink.Directory(rootId, 0, root.getFileName().toString(), root),
                            new FileSink.Directory(oldId, rootId, "old", root.resolve("old")), null, null),
                    List.of(walker.list(root).entries(), walker.list(root.resolve("old")).entries(),
                            walker.list(root.resolve("a")).entries(), walker.list(a).entries()));
            assertThat(results).allSatisfy(r -> assertThat(r.applied()).isNotNull());
            loaded = sink.loadedRows();
            sink.finish(true);
        }

        // a (below the root, which this scan did not insert) and old/z.txt (below a directory it found) are
        // inserted with conflict handling; x.txt, b and y.txt are below directories this very scan inserted.
        assertThat(loads).isEqualTo(IndexInternals.of(index).statements().bulkLoader != null && expectsBulkLoads());
        assertThat(loaded).isEqualTo(loads ? 3 : 0);
        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactlyInAnyOrder("ADDED a", "ADDED a/x.txt", "ADDED a/b",
                "ADDED a/b/y.txt", "ADDED old/z.txt", "MODIFIED old");
        assertThat(index.scan(root).added()).isZero();
    }

    /**
     * A scan's root is listed like any directory below it: a huge root part by part, and where no row is below the root
     * once this scan has claimed it (a cold scan), its entries go through the bulk loader as a directory the scan
     * inserted would. The root was never counted as such, so a huge root's parts were compared with the index name by
     * name and inserted with conflict handling instead (79 s on PostgreSQL for a 200,000-file root, 10 s for the same
     * directory below the root). Each entry is indexed and added to the feed once, whichever way it went in.
     */
    @Test
    void aHugeRootOnAnEmptyIndexIsLoadedPartByPartLikeADirectoryBelowIt() throws Exception {
        String[] spec = new String[10];
        for (int i = 0; i < spec.length; i++) {
            spec[i] = "f" + i;
        }
        Path root = tree(spec).toRealPath();
        FsIndex index = openIndex();
        NioWalker walker = new NioWalker();
        List<WalkedEntry> trunk = new ArrayList<>();
        Path prefix = root.getRoot();
        trunk.add(new WalkedEntry(prefix.toString(), walker.stat(prefix)));
        for (int i = 0; i < root.getNameCount() - 1; i++) {
            prefix = prefix.resolve(root.getName(i).toString());
            trunk.add(new WalkedEntry(root.getName(i).toString(), walker.stat(prefix)));
        }
        List<WalkedEntry> listing = walker.list(root).entries();

        long loaded;
        boolean loads;
        try (Connection c = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, root.toString()));
            loads = sink.loaderUsable();
            FileSink.Applied top = sink.begin(trunk, new WalkedEntry(root.getFileName().toString(),
                    walker.stat(root)), root);
            FileSink.Directory dir = top.subdirectories().get(0);
            PartedListings.PartTally parts = new PartedListings.PartTally();
            long added = 0;
            for (int from = 0; from < listing.size(); from += 4) {
                int to = Math.min(from + 4, listing.size());
                added += sink.applyPart(dir, listing.subList(from, to), parts, to == listing.size()).added();
            }
            assertThat(added).isEqualTo(10);
            loaded = sink.loadedRows();
            sink.finish(true);
        }

        assertThat(loads).isEqualTo(IndexInternals.of(index).statements().bulkLoader != null && expectsBulkLoads());
        assertThat(loaded).as("rows loaded in bulk").isEqualTo(loads ? 10 : 0);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(index.changesSince(0, 100).changes()).filteredOn(ch -> ch.path().startsWith(root))
                .extracting(ch -> ch.type() + " " + root.relativize(ch.path()))
                .containsExactlyInAnyOrder(Stream.concat(Stream.of("ADDED "),
                        Arrays.stream(spec).map(f -> "ADDED " + f)).toArray(String[]::new));
        ScanResult rescan = index.scan(root);
        assertThat(rescan.added() + rescan.deleted() + rescan.modified()).isZero();
    }

    /**
     * A directory listed in parts is applied part by part, each in its own transaction, so a newer scan can claim the
     * directory between two parts. From then on the older scan's parts must not be applied (what the newer scan saw
     * stands), and neither may its check for missing rows run: here its last part still lists a file the newer scan
     * found deleted, which applying it would bring back.
     */
    @Test
    void partsAfterANewerScanClaimedTheDirectoryAreNotApplied() throws Exception {
        String[] spec = new String[11];
        spec[0] = "big/";
        for (int i = 0; i < 10; i++) {
            spec[i + 1] = "big/f" + i;
        }
        Path root = tree(spec);
        Path big = root.resolve("big");
        FsIndex index = openIndex();
        index.scan(root);
        FileSink.Directory dir = new FileSink.Directory(index.lookup(big).orElseThrow().id(),
                index.lookup(root).orElseThrow().id(), "big", big);
        List<WalkedEntry> listing = new NioWalker().list(big).entries();
        Files.writeString(big.resolve("new"), "created after the older scan listed big");

        Path deleted = big.resolve(listing.get(7).name());
        try (Connection c = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, root.toString()));
            PartedListings.PartTally parts = new PartedListings.PartTally();
            assertThat(sink.applyPart(dir, listing.subList(0, 5), parts, false).unchanged()).isEqualTo(5);

            Files.delete(deleted);
            index.scan(root);                   // newer: claims big, records the deletion and the new file
            assertThat(index.lookup(deleted)).isEmpty();

            FileSink.Applied last = sink.applyPart(dir, listing.subList(5, 10), parts, true);
            assertThat(last.unchanged()).isZero();
            assertThat(last.skipped()).isEqualTo(5);
            sink.finish(true);
        }
        assertThat(index.lookup(deleted)).isEmpty();
        assertThat(index.lookup(big.resolve("new"))).isPresent();
        assertThat(index.children(big)).hasSize(10);
    }

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

    /**
     * A row another scan inserts below a directory after this scan's transaction began, and which this scan then
     * writes (here: records its new size), is recorded modified, not also added: the scan tells the rows it inserted
     * itself by their ids being above the largest id when its transaction began, so on finding a row above that which
     * it did not insert it starts the transaction again. The other scan's insert is staged here while this scan's
     * transaction waits for the directory's row, which the test holds.
     */
    @Test
    void aRowAnotherScanInsertedAfterTheTransactionBeganIsNotRecordedAddedByThisScan() throws Exception {
        Path root = tree("d/", "keep.txt");
        Path d = root.resolve("d");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Files.writeString(d.resolve("late.txt"), "inserted by another scan meanwhile");
        Files.writeString(d.resolve("new.txt"), "inserted by this scan");
        List<WalkedEntry> listingOfD = new NioWalker().list(d).entries();
        String insertLate = "INSERT INTO " + prefix() + "files (parent, name, kind, scan_id) VALUES (" + dId
                + ", 'late.txt', 'FILE', %d)";

        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            long older = IndexInternals.of(index).insertScanRow(olderC, d.toString());
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            String waits = lockWaitsQuery(prefix());
            if (waits == null) {
                try (Statement s = olderC.createStatement()) {
                    s.executeUpdate(String.format(insertLate, older));
                }
                newer.applyGroup(List.of(d), List.of(new FileSink.Directory(dId, rootId, "d", d)),
                        List.of(listingOfD));
            } else {
                olderC.setAutoCommit(false);
                try (Statement s = olderC.createStatement()) {
                    s.executeQuery("SELECT id FROM " + prefix() + "files WHERE id = " + dId + " FOR UPDATE").close();
                }
                Future<?> applying = executor.submit(() -> newer.applyGroup(List.of(d),
                        List.of(new FileSink.Directory(dId, rootId, "d", d)), List.of(listingOfD)));
                assertThat(awaitLockWaits(waits, 1, applying)).as("the listing waits for d's row").isTrue();
                try (Statement s = olderC.createStatement()) {
                    s.executeUpdate(String.format(insertLate, older));
                }
                olderC.commit();
                applying.get(60, TimeUnit.SECONDS);
            }
            newer.finish(true);
        } finally {
            executor.shutdownNow();
        }

        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactlyInAnyOrder("MODIFIED d/late.txt", "ADDED d/new.txt");
    }

    /**
     * A name another transaction inserts below a directory while the scan applies its listing of it (a newer partial
     * scan's root, say) is left to that transaction: the scan's insert waits for it, finds the name taken, and
     * neither records the row as added nor counts it. On MariaDB this is the duplicate that {@code INSERT IGNORE}
     * leaves out with a warning, and the only warning it may leave; with {@code ON DUPLICATE KEY UPDATE} MariaDB's
     * {@code RETURNING} would return the other transaction's row as if inserted.
     */
    @Test
    void aNameAnotherTransactionInsertsMeanwhileIsLeftToIt() throws Exception {
        Path root = tree("d/x.txt");
        Path d = root.resolve("d");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Files.writeString(d.resolve("y.txt"), "taken meanwhile");
        Files.writeString(d.resolve("z.txt"), "added by the scan");
        List<WalkedEntry> listingOfD = new NioWalker().list(d).entries();

        ExecutorService executor = Executors.newSingleThreadExecutor();
        List<ListingWaves.GroupResult> results;
        long other;
        try (Connection c = IndexInternals.of(index).db().connect(); Connection otherC = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, root.toString()));
            other = IndexInternals.of(index).insertScanRow(otherC, d.resolve("y.txt").toString());
            otherC.setAutoCommit(false);
            try (Statement s = otherC.createStatement()) {
                s.executeUpdate("INSERT INTO " + prefix() + "files (parent, name, kind, scan_id) VALUES (" + dId
                        + ", 'y.txt', 'FILE', " + other + ")");
            }
            Future<List<ListingWaves.GroupResult>> applying = executor.submit(() -> sink.applyGroup(List.of(d),
                    List.of(new FileSink.Directory(dId, rootId, "d", d)), List.of(listingOfD)));
            String waits = lockWaitsQuery(prefix());
            if (waits != null) {
                assertThat(awaitLockWait(waits, applying)).as("the scan's insert must wait for the other's row")
                        .isTrue();
            }
            otherC.commit();
            results = applying.get(60, TimeUnit.SECONDS);
            sink.finish(true);
        } finally {
            executor.shutdownNow();
        }

        assertThat(results.get(0).applied().added()).isEqualTo(1);
        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactly("ADDED d/z.txt");
        assertThat(new RawIndex(database(), prefix()).queryLong("SELECT scan_id FROM " + prefix()
                + "files WHERE name = 'y.txt'")).isEqualTo(other);
    }

    /**
     * A write transaction retried after a transient failure (here a refused bulk load) that then fails for good must
     * say what made it retry as well: a load refused because the connection broke shows up as the next attempt's
     * "connection closed", which alone does not tell why.
     */
    @Test
    void aWriteThatFailsAfterARetryAlsoReportsWhatMadeItRetry() throws Exception {
        FsIndex index = openIndex();
        int[] attempts = {0};
        try (Connection c = IndexInternals.of(index).db().connect()) {
            assertThatThrownBy(() -> IndexInternals.of(index).db().write(c, conn -> {
                if (attempts[0]++ == 0) {
                    throw new LoadRefused(new SQLException("the load broke"));
                }
                throw new SQLException("the retry failed");
            })).isInstanceOf(SQLException.class).hasMessage("the retry failed")
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                            .isInstanceOf(LoadRefused.class)
                            .satisfies(s -> assertThat(s.getMessage()).contains("the load broke")));
        }
        assertThat(attempts[0]).isEqualTo(2);
    }

    private boolean awaitLockWait(String query, Future<?> work) throws Exception {
        return awaitLockWaits(query, 1, work);
    }

    /** Waits until {@code query} counts at least {@code count} transactions waiting for a lock, while work runs. */
    private boolean awaitLockWaits(String query, int count, Future<?> work) throws Exception {
        RawIndex raw = new RawIndex(database(), prefix());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline && !work.isDone()) {
            if (raw.queryLong(query) >= count) {
                return true;
            }
            // InnoDB refreshes its INFORMATION_SCHEMA lock tables only when they were last read over 0.1 s ago:
            // polled more often, they would show the same first picture for ever.
            Thread.sleep(150);
        }
        return false;
    }
}
