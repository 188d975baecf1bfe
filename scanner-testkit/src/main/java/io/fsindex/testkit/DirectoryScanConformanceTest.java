package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileEntry;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Directory scans ({@link FsIndex#scanDirectory}), the unit a watch's event needs, on a real database: one
 * directory's listing is applied with the same protocol as any scan, the scan descends only into subdirectories new
 * to their place, and it never sweeps (nor even lists) the contents of a subdirectory it did not descend into, also
 * while an older full scan holds rows there. The races pause scans with a {@link PausingWalker}, as
 * {@link ScanRaceFixture} does.
 */
public abstract class DirectoryScanConformanceTest extends IndexTest {
    private final List<PausingWalker> walkers = new ArrayList<>();

    @AfterEach
    void releaseScans() {
        walkers.forEach(PausingWalker::releaseAll);
    }

    private PausingWalker walker() {
        PausingWalker w = new PausingWalker();
        walkers.add(w);
        return w;
    }

    private static Map<String, Long> idsBelow(FsIndex index, Path dir) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (FileEntry e : index.children(dir)) {
            out.put(e.name(), e.id());
            if (e.kind() == io.fsindex.api.FileKind.DIRECTORY) {
                idsBelow(index, e.path()).forEach((name, id) -> out.put(e.name() + "/" + name, id));
            }
        }
        return out;
    }

    // A directory scan reads one listing, and the complete subtree of a subdirectory that is new there.
    @Test
    void aDirectoryScanAppliesItsListingAndDescendsOnlyIntoNewSubdirectories() throws Exception {
        Path root = tree("a/", "a/x.txt", "a/gone.txt", "a/gonedir/", "a/gonedir/g.txt", "a/b/", "a/b/y.txt",
                "a/b/c/", "a/b/c/z.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Files.writeString(root.resolve("a/x.txt"), "longer than before");
        Trees.delete(root.resolve("a/gone.txt"));
        Trees.delete(root.resolve("a/gonedir"));
        Trees.create(root, "a/new.txt", "a/newdir/", "a/newdir/n.txt", "a/newdir/deep/", "a/newdir/deep/d.txt");
        Trees.delete(root.resolve("a/b/y.txt"));            // below an old subdirectory: not this scan's business
        Trees.create(root, "a/b/c/unseen.txt");

        List<Change> changes = new ArrayList<>();
        ScanResult r = index.scanDirectory(root.resolve("a"), ScanOptions.defaults().withListener(new ScanListener() {
            @Override
            public void changed(Change change) {
                changes.add(change);
            }
        }));

        // Below the root only: the trunk's rows (the temporary directories above it) change with other tests.
        assertThat(changes.stream().filter(c -> c.path().startsWith(root))
                .map(c -> c.type() + " " + root.relativize(c.path())).sorted())
                .containsExactly("ADDED a/new.txt", "ADDED a/newdir", "ADDED a/newdir/deep",
                        "ADDED a/newdir/deep/d.txt", "ADDED a/newdir/n.txt", "DELETED a/gone.txt",
                        "DELETED a/gonedir", "DELETED a/gonedir/g.txt", "MODIFIED a", "MODIFIED a/b",
                        "MODIFIED a/x.txt");               // a/b's own row (its time) is in a's listing
        assertThat(r.deleted()).isEqualTo(3);
        assertThat(index.lookup(root.resolve("a/b/y.txt"))).as("not below a directory it descended into")
                .isPresent();
        assertThat(index.lookup(root.resolve("a/b/c/unseen.txt"))).isEmpty();
        assertThat(index.info(1).recentScans().get(0).message()).isEqualTo(FsIndex.DIRECTORY_SCAN);
        try (IndexInvariants invariants = new IndexInvariants(database(), prefix())) {
            assertThat(invariants.staleRows()).isEmpty();
        }

        index.scan(root);
        assertThat(CampaignChecks.indexEqualsTree(index, root)).isEmpty();
    }

    // A directory scan takes part in the protocol as any scan: it neither sweeps rows an older scan marked below a
    // subdirectory it left alone, nor keeps that older scan from finishing there.
    @Test
    void aDirectoryScanNeverSweepsWhatAnOlderScanMarkedBelowASubdirectoryItDidNotDescendInto() throws Exception {
        Path root = tree("a/", "a/b/", "a/b/y.txt", "a/b/keep.txt", "a/b/zz/", "a/b/zz/1.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("a/b/y.txt"));
        PausingWalker walker = walker();
        PausingWalker.Pause beforeZ = walker.pauseBeforeListing(root.resolve("a/b/zz"));
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        beforeZ.awaitPaused();                       // has applied a/b's listing: y.txt is marked stale, unswept

        Trees.create(root, "a/new.txt");
        ScanResult newer = index.scanDirectory(root.resolve("a"), ScanOptions.defaults());
        assertThat(newer.deleted()).isZero();
        assertThat(index.lookup(root.resolve("a/new.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("a/b/y.txt"))).as("marked by the older scan, which has not swept")
                .isPresent();

        beforeZ.release();
        ScanResult olderResult = older.await();
        assertThat(olderResult.deleted()).as("the older scan still owns b and sweeps what it saw gone").isEqualTo(1);
        assertThat(index.lookup(root.resolve("a/b/y.txt"))).isEmpty();
        assertThat(CampaignChecks.indexEqualsTree(index, root)).isEmpty();
        try (IndexInvariants invariants = new IndexInvariants(database(), prefix())) {
            assertThat(invariants.staleRows()).isEmpty();
        }
    }

    // The owner check holds for a directory scan's listing too: held across a newer full scan, it applies nothing.
    @Test
    void anOlderDirectoryScansListingAppliesNothingOnceANewerScanListedItsDirectory() throws Exception {
        Path root = tree("a/", "a/x.txt", "a/sub/", "a/sub/s.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterA = walker.pauseAfterListing(root.resolve("a"));
        CompletableFuture<ScanResult> directory = CompletableFuture.supplyAsync(
                () -> index.scanDirectory(root.resolve("a"), ScanOptions.defaults().withWalker(walker)));
        afterA.awaitPaused();                        // holds a's listing: x.txt, sub
        Trees.delete(root.resolve("a/x.txt"));
        Trees.delete(root.resolve("a/sub"));
        assertThat(index.scan(root).deleted()).isEqualTo(3);
        afterA.release();
        directory.get();

        assertThat(index.lookup(root.resolve("a/x.txt"))).as("not resurrected").isEmpty();
        assertThat(index.lookup(root.resolve("a/sub"))).isEmpty();
        assertThat(CampaignChecks.indexEqualsTree(index, root)).isEmpty();
    }

    // Moves keep ids when the two directories' listings are applied by separate directory scans, in either order.
    @Test
    void aDirectoryMovedBetweenTwoDirectoriesKeepsItsIdsWhicheverSideIsScannedFirst() throws Exception {
        Path root = tree("from/", "from/moved/", "from/moved/1.txt", "from/moved/in/", "from/moved/in/2.txt",
                "to/", "from2/", "from2/m2/", "from2/m2/3.txt", "to2/");
        FsIndex index = openIndex();
        index.scan(root);
        Map<String, Long> before = idsBelow(index, root.resolve("from/moved"));
        Map<String, Long> before2 = idsBelow(index, root.resolve("from2/m2"));
        long movedId = index.lookup(root.resolve("from/moved")).orElseThrow().id();
        long moved2Id = index.lookup(root.resolve("from2/m2")).orElseThrow().id();
        Files.move(root.resolve("from/moved"), root.resolve("to/moved"));
        Files.move(root.resolve("from2/m2"), root.resolve("to2/m2"));

        index.scanDirectory(root.resolve("to"), ScanOptions.defaults());           // new place first
        index.scanDirectory(root.resolve("from"), ScanOptions.defaults());
        index.scanDirectory(root.resolve("from2"), ScanOptions.defaults());        // old place first
        index.scanDirectory(root.resolve("to2"), ScanOptions.defaults());

        assertThat(index.lookup(root.resolve("to/moved")).orElseThrow().id()).isEqualTo(movedId);
        assertThat(idsBelow(index, root.resolve("to/moved"))).isEqualTo(before);
        assertThat(index.lookup(root.resolve("to2/m2")).orElseThrow().id()).isEqualTo(moved2Id);
        assertThat(idsBelow(index, root.resolve("to2/m2"))).isEqualTo(before2);
        assertThat(CampaignChecks.indexEqualsTree(index, root)).isEmpty();
        Map<ChangeType, Long> byType = index.changesSince(0, 1000).changes().stream()
                .collect(Collectors.groupingBy(Change::type, Collectors.counting()));
        assertThat(byType.get(ChangeType.MOVED)).isEqualTo(2);
    }
}
