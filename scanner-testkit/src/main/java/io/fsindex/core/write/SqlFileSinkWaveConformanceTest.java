package io.fsindex.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink;
import io.fsindex.api.ScanResult;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.testkit.ReplayedFeed;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of waves and parts a real scan produces only by chance, staged on the sink itself: a wave moving a row
 * the wave before it inserted, the children of a directory the scan inserted going through the bulk loader only, a huge
 * directory loaded part by part, and a newer scan claiming a huge directory between two parts of an older scan's
 * listing. A dialect's test extends this class like the other conformance suites.
 */
public abstract class SqlFileSinkWaveConformanceTest extends SqlFileSinkFixture {

    /**
     * Whether the database under test lets the dialect's bulk loader run, if it has one; false for a setup whose
     * server or driver turns loads off (MySQL's {@code LOCAL INFILE} without both switches), which then inserts.
     */
    protected boolean expectsBulkLoads() {
        return true;
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
        long cursor = index.changeFeedEnd();

        Files.writeString(a.resolve("f.txt"), "moves between two listings");
        Path n = Files.createDirectories(a.resolve("n"));
        applyWithFileMovedBetweenListings(index, root, "f.txt");

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
     * A row one wave inserted and the next wave moved into a directory where that wave inserts rows too is recorded
     * once as added, at its first place: where added rows are read back from the directories they went into
     * (MySQL), the moved row is below the second directory too, written by this scan and above the transaction's
     * floor like the rows inserted there, and must not be counted with them.
     */
    @Test
    void aRowMovedIntoADirectoryWhoseWaveInsertsRowsIsAddedOnce() throws Exception {
        Path root = tree("a/n/", "seed.txt");
        Path a = root.resolve("a");
        Path n = a.resolve("n");
        FsIndex index = openIndex();
        index.scan(root);
        long cursor = index.changeFeedEnd();

        Files.writeString(a.resolve("f.txt"), "moves between two listings");
        Files.writeString(n.resolve("g.txt"), "inserted beside the moved row");
        List<ListingWaves.GroupResult> results = applyWithFileMovedBetweenListings(index, root, "f.txt");
        assertThat(results.get(1).applied().added()).as("rows added in n").isEqualTo(1);

        List<String> changes = index.changesSince(cursor, 100).changes().stream()
                .map(ch -> ch.type() + " " + root.relativize(ch.path())).toList();
        assertThat(changes).hasSize(4);
        assertThat(changes.subList(0, 2)).as("the first wave's changes, in an engine's order")
                .containsExactlyInAnyOrder("ADDED a/f.txt", "MODIFIED a/n");
        assertThat(changes.subList(2, 4)).containsExactly("MOVED a/n/f.txt", "ADDED a/n/g.txt");
    }

    /**
     * A row moved into one directory of a wave changes how that directory's added rows are found, and only that
     * directory's: the rows another directory of the same wave inserted are recorded added as ever.
     */
    @Test
    void theOtherDirectoriesOfAWaveThatTookAMovedRowRecordTheirAddedRows() throws Exception {
        Path root = tree("a/n/", "a/m/", "seed.txt");
        Path a = root.resolve("a");
        FsIndex index = openIndex();
        index.scan(root);
        long cursor = index.changeFeedEnd();

        Files.writeString(a.resolve("f.txt"), "moves between two listings");
        Files.writeString(a.resolve("n/g.txt"), "inserted beside the moved row");
        Files.writeString(a.resolve("m/h.txt"), "inserted in the same wave");
        applyWithFileMovedBetweenListings(index, root, "f.txt", "m");

        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactlyInAnyOrder("ADDED a/f.txt", "MODIFIED a/n",
                "MODIFIED a/m", "MOVED a/n/f.txt", "ADDED a/n/g.txt", "ADDED a/m/h.txt");
    }

    /**
     * A directory the walker listed at its old place and then found at its new one, the two listings applied in one
     * wave (the places are siblings): the wave moves the directory's row, and what its listing from the old place
     * adds is recorded at the directory's new path, so that replaying the feed puts it where the index has it.
     */
    @Test
    void aDirectoryMovedByTheWaveThatAppliesItsOldListingRecordsItsRowsAtItsNewPath() throws Exception {
        Path root = tree("a/d/", "a/d/x.txt", "a/e/", "seed.txt");
        Path a = root.resolve("a");
        Path d = a.resolve("d");
        Path moved = a.resolve("e/d2");
        FsIndex index = openIndex();
        index.scan(root);
        long dirId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();

        Files.writeString(d.resolve("new.txt"), "listed before its directory moved");
        applyAsOneGroupOfA(index, root, List.of(d), () -> Files.move(d, moved), List.of(a.resolve("e")));

        List<Change> changes = index.changesSince(cursor, 100).changes();
        assertThat(changes).extracting(ch -> ch.type() + " " + root.relativize(ch.path())).containsExactlyInAnyOrder(
                "MODIFIED a/d", "MOVED a/e/d2", "ADDED a/e/d2/new.txt");
        long added = index.lookup(moved.resolve("new.txt")).orElseThrow().id();
        assertThat(ReplayedFeed.paths(changes).get(added)).isEqualTo(moved.resolve("new.txt"));
        assertThat(index.lookup(moved).orElseThrow().id()).as("the directory keeps its id").isEqualTo(dirId);
    }

    /**
     * Lists {@code root/a}, moves its file {@code name} into {@code a/n}, lists {@code n} and then the subdirectories
     * {@code alsoListed} of {@code a}, and applies all as one group of a scan of {@code a} (so all but {@code a}'s in
     * a second wave), as a real scan does when the file moves on disk between the walker's listings; returns what
     * each listing did.
     */
    private List<ListingWaves.GroupResult> applyWithFileMovedBetweenListings(FsIndex index, Path root, String name,
                                                                             String... alsoListed) throws Exception {
        Path a = root.resolve("a");
        List<Path> after = new ArrayList<>(List.of(a.resolve("n")));
        for (String sub : alsoListed) {
            after.add(a.resolve(sub));
        }
        return applyAsOneGroupOfA(index, root, List.of(), () -> Files.move(a.resolve(name), a.resolve("n/" + name)),
                after);
    }

    /** A change made on disk between two of the walker's listings. */
    private interface DiskChange {
        void make() throws Exception;
    }

    /**
     * Lists {@code root/a} and its subdirectories {@code before}, makes {@code change}, lists the subdirectories
     * {@code after}, and applies all as one group of a scan of {@code a} (so all but {@code a}'s in a second wave),
     * as a real scan does when the tree changes between the walker's listings; returns what each listing did.
     */
    private List<ListingWaves.GroupResult> applyAsOneGroupOfA(FsIndex index, Path root, List<Path> before,
                                                              DiskChange change, List<Path> after) throws Exception {
        Path a = root.resolve("a");
        long aId = index.lookup(a).orElseThrow().id();
        long rootId = index.lookup(root).orElseThrow().id();
        NioWalker walker = new NioWalker();
        List<Path> paths = new ArrayList<>(List.of(a));
        List<FileSink.Directory> dirs = new ArrayList<>();
        dirs.add(new FileSink.Directory(aId, rootId, "a", a));
        List<List<WalkedEntry>> listings = new ArrayList<>(List.of(walker.list(a).entries()));
        for (Path sub : before) {
            paths.add(sub);
            dirs.add(null);
            listings.add(walker.list(sub).entries());
        }
        change.make();
        for (Path sub : after) {
            paths.add(sub);
            dirs.add(null);
            listings.add(walker.list(sub).entries());
        }
        try (Connection c = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, a.toString()));
            List<ListingWaves.GroupResult> results = sink.applyGroup(paths, dirs, listings);
            assertThat(results).allSatisfy(r -> assertThat(r.applied()).isNotNull());
            sink.finish(true);
            return results;
        }
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
}
