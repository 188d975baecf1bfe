package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FileKind;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/**
 * Races around an entry that changes kind: a directory replaced by a file keeps no children, even when an older listing
 * arrives late or the scan is cancelled, and a file replaced by a directory is descended into (see
 * {@link ScanRaceFixture}). A dialect's test extends this class and says in {@link #database()} which database to use,
 * exactly as for {@link FsIndexConformanceTest}.
 */
public abstract class ScanKindChangeRaceConformanceTest extends ScanRaceFixture {

    // Protocol: a directory row turned into a file is claimed and emptied, so late older listings cannot refill it.
    @Test
    void directoryReplacedByAFileKeepsNoChildrenEvenWhenAnOlderListingArrivesLate() throws Exception {
        Path root = tree("d/", "d/x.txt", "d/sub/", "d/sub/y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds d's listing: x.txt, sub
        Trees.delete(root.resolve("d"));
        write(root.resolve("d"), 51);
        assertThat(index.scan(root).deleted()).isEqualTo(3);
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        afterD.release();
        older.await();

        assertThat(index.lookup(root.resolve("d")).orElseThrow().kind()).isEqualTo(FileKind.FILE);
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a former directory's children go in the transaction that converts it, even if the scan is cancelled.
    @Test
    void contentsOfADirectoryFoundReplacedByAFileGoAtOnceEvenIfTheScanIsCancelled() throws Exception {
        Path root = tree("b/", "b/x.txt", "b/sub/", "b/sub/y.txt", "c/", "c/z.txt", "d/");  // d: still to list
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("b"));
        write(root.resolve("b"), 71);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeC = walker.pauseBeforeListing(root.resolve("c"));

        ScanSession scan = index.startScan(root, with(walker));
        beforeC.awaitPaused();                     // has applied the root's listing, where b is now a file
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(index.lookup(root.resolve("b/x.txt"))).isEmpty();
        scan.cancel();
        beforeC.release();
        assertThatThrownBy(scan::await).isInstanceOf(CancellationException.class);

        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(invariants.staleRows()).isEmpty();
        assertIndexMatchesDisk(index, root);
    }

    // Protocol: the same when the scan learns of the conversion from a failed listing (vanished with a replacement).
    @Test
    void contentsOfADirectoryThatBecameAFileBeforeItWasListedGoAtOnce() throws Exception {
        Path root = tree("b/", "b/x.txt", "b/sub/", "b/sub/y.txt", "c/", "c/z.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeB = walker.pauseBeforeListing(root.resolve("b"));
        PausingWalker.Pause beforeC = walker.pauseBeforeListing(root.resolve("c"));

        ScanSession older = index.startScan(root, with(walker));
        beforeB.awaitPaused();                     // has claimed b
        Trees.delete(root.resolve("b"));
        write(root.resolve("b"), 72);
        beforeB.release();
        beforeC.awaitPaused();                     // listing b failed: it recorded b as the file it now is
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        index.scan(root);
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertIndexMatchesDisk(index, root);
        beforeC.release();
        older.await();

        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(invariants.staleRows()).isEmpty();
        assertIndexMatchesDisk(index, root);
    }

    // Protocol: a scan descends into every directory it lists, including one that was a file in the index before.
    @Test
    void fileReplacedByADirectoryIsDescendedIntoByTheNextScan() {
        Path root = tree("d", "e/");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("d"));
        Trees.create(root, "d/", "d/inside.txt", "d/deeper/", "d/deeper/z.txt");

        index.scan(root);

        assertIndexMatchesDisk(index, root);
    }
}
