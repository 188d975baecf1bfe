package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;

/**
 * Races over removal: an older scan resuming after a newer one swept, confirmed or recorded again a directory or file
 * neither fails nor resurrects nor deletes anything, and ids are never handed out twice (see {@link ScanRaceFixture}).
 * A dialect's test extends this class and says in {@link #database()} which database to use, exactly as for
 * {@link FsIndexConformanceTest}.
 */
public abstract class ScanSweepRaceConformanceTest extends ScanRaceFixture {

    // Protocol: a child is inserted only while its parent row exists (the seed's foreign-key race).
    @Test
    void olderScanResumingAfterItsDirectoryWasSweptFailsNothingAndResurrectsNothing() throws Exception {
        Path root = tree("keep.txt", "d/", "d/x.txt", "d/sub/", "d/sub/y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // the older scan holds d's listing: x.txt, sub
        Trees.delete(root.resolve("d"));
        ScanResult newer = index.scan(root);
        assertThat(newer.deleted()).isEqualTo(4);
        afterD.release();
        ScanResult resumed = older.await();        // inserting x.txt under the swept d must not fail

        assertThat(resumed.errors()).isEmpty();
        assertThat(index.lookup(root.resolve("d"))).isEmpty();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.orphans()).isEmpty();
        assertThat(invariants.staleRows()).isEmpty();
    }

    // The same for a directory the older scan inserted itself, whose children an engine may bulk-load: the load
    // relies on the wave's locked read of the parent, not on a foreign-key check (which a loader may skip), to find
    // the directory swept. (Without orphan retention, so that the sweep deletes d's row instead of keeping it.)
    @Test
    void olderScanResumingAfterADirectoryItInsertedWasSweptLoadsNothingBelowIt() throws Exception {
        Path root = tree("keep.txt");
        FsIndex index = openIndex(b -> b.orphanRetention(java.time.Duration.ZERO));
        index.scan(root);
        Trees.create(root, "d/", "d/x.txt", "d/y.txt", "d/sub/", "d/sub/z.txt");
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // has inserted d, and holds its listing: x.txt, y.txt, sub
        long dId = index.lookup(root.resolve("d")).orElseThrow().id();
        Trees.delete(root.resolve("d"));
        assertThat(index.scan(root).deleted()).isEqualTo(1);
        afterD.release();
        ScanResult resumed = older.await();

        assertThat(resumed.errors()).isEmpty();
        assertThat(invariants.maxId()).isLessThan(dId);  // d's row is gone, and nothing went in below it
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.orphans()).isEmpty();
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a child is inserted only if no newer scan has listed its parent (parent.listed_by <= scan).
    @Test
    void olderScanDoesNotResurrectChildrenANewerScanSwept() throws Exception {
        Path root = tree("d/", "d/kept.txt", "d/gone.txt", "d/gonedir/", "d/gonedir/z.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds kept.txt, gone.txt, gonedir
        Trees.delete(root.resolve("d/gone.txt"));
        Trees.delete(root.resolve("d/gonedir"));
        assertThat(index.scan(root).deleted()).isEqualTo(3);
        afterD.release();
        older.await();

        assertThat(index.lookup(root.resolve("d/gone.txt"))).isEmpty();
        assertThat(index.lookup(root.resolve("d/gonedir"))).isEmpty();
        assertThat(index.lookup(root.resolve("d/kept.txt"))).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: ids are never reused (AUTOINCREMENT), so a swept directory's id cannot come back on an unrelated row.
    @Test
    void aSweptDirectorysIdIsNeverGivenToANewRowThatAnOlderScanCouldFill() throws Exception {
        Path root = tree("keep.txt");
        FsIndex index = openIndex(b -> b.orphanRetention(java.time.Duration.ZERO));     // swept rows deleted at once
        index.scan(root);
        // Created after the first scan, so d is the newest row but for its own children: once d's subtree is swept,
        // a table that hands out max(id) + 1 gives the very next row d's id.
        Trees.create(root, "d/", "d/c1.txt", "d/c2.txt");
        index.scan(root);
        long deletedDirId = index.lookup(root.resolve("d")).orElseThrow().id();
        long newestDeletedId = invariants.maxId();
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds d's listing (c1.txt, c2.txt) for directory row deletedDirId
        Trees.delete(root.resolve("d"));
        index.scan(root);                          // sweeps d, c1.txt, c2.txt
        Files.writeString(root.resolve("new.txt"), "new");
        index.scan(root);                          // the first row inserted since the sweep
        FileEntry fresh = index.lookup(root.resolve("new.txt")).orElseThrow();
        afterD.release();
        older.await();

        // With id reuse, new.txt would be a FILE row with d's id and listed_by 0, so the older scan's conditional
        // insert (parent exists and parent.listed_by <= scan) would pass and hang c1.txt and c2.txt under a file.
        assertThat(fresh.id()).isGreaterThan(newestDeletedId).isGreaterThan(deletedDirId);
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(index.children(root.resolve("new.txt"))).isEmpty();
        assertIndexMatchesDisk(index, root);
    }

    // Protocol: the sweep deletes only rows whose stale mark this scan owns (scan_id = scan), never a newer scan's.
    @Test
    void olderScanDoesNotSweepRowsANewerRunningScanMarked() throws Exception {
        Path root = tree("d/", "d/f.txt", "d/sub/", "d/sub/g.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker olderWalker = walker();
        PausingWalker.Pause olderBeforeD = olderWalker.pauseBeforeListing(root.resolve("d"));
        PausingWalker newerWalker = walker();
        PausingWalker.Pause newerBeforeD = newerWalker.pauseBeforeListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(olderWalker));
        olderBeforeD.awaitPaused();
        ScanSession newer = index.startScan(root, with(newerWalker));
        newerBeforeD.awaitPaused();                // has claimed d, so the older scan's listing of d must not apply
        olderBeforeD.release();
        older.await();                             // completes and sweeps while the newer scan is still running

        assertThat(index.lookup(root.resolve("d/f.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("d/sub/g.txt"))).isPresent();
        newerBeforeD.release();
        newer.await();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a row a newer scan confirmed (scan_id := newer, stale := 0) survives an older scan's sweep.
    @Test
    void olderScanDoesNotDeleteAFileANewerScanConfirmed() throws Exception {
        Path root = tree("d/", "d/n.txt", "d/other.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("d/n.txt"));
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds a listing without n.txt; applying it marks what is missing
        Trees.create(root, "d/n.txt");
        index.scan(root.resolve("d/n.txt"));
        afterD.release();
        older.await();

        assertThat(index.lookup(root.resolve("d/n.txt"))).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a directory that vanished while listing is marked stale only where scan_id <= scan.
    @Test
    void vanishedDirectoryIsKeptWhenANewerScanRecordedItAgain() throws Exception {
        Path root = tree("d/", "d/f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeD = walker.pauseBeforeListing(root.resolve("d"));
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        beforeD.awaitPaused();
        Trees.delete(root.resolve("d"));
        beforeD.release();
        afterD.awaitPaused();                      // its listing of d failed: d is gone
        Trees.create(root, "d/", "d/g.txt");
        index.scan(root);
        afterD.release();
        older.await();

        assertThat(index.lookup(root.resolve("d/g.txt"))).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: marking a vanished directory takes the parent guard (parent.listed_by <= scan): a newer scan that
    // listed the parent and found the directory unchanged wrote nothing to it, so its scan_id alone would not keep it.
    @Test
    void vanishedDirectoryIsKeptWhenANewerScanFoundItUnchanged() throws Exception {
        Path root = tree("d/", "d/f.txt");
        Path d = root.resolve("d");
        Path f = root.resolve("d/f.txt");
        String fContent = Files.readString(f);
        FileTime fTime = Files.getLastModifiedTime(f);
        FileTime dTime = Files.getLastModifiedTime(d);
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeD = walker.pauseBeforeListing(d);
        PausingWalker.Pause afterD = walker.pauseAfterListing(d);

        ScanSession older = index.startScan(root, with(walker));
        beforeD.awaitPaused();
        Trees.delete(d);
        beforeD.release();
        afterD.awaitPaused();                      // its listing of d failed: d is gone
        Files.createDirectory(d);                  // back exactly as the index records it
        Files.writeString(f, fContent);
        Files.setLastModifiedTime(f, fTime);
        Files.setLastModifiedTime(d, dTime);
        index.scan(root);                          // lists the root and d, finds both unchanged: writes neither
        afterD.release();
        older.await();

        assertThat(index.lookup(f)).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }
}
