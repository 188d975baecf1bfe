package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Races over who may apply a listing: an older scan's listing, upsert or move never overwrites, takes over or undoes
 * what a newer scan wrote or found unchanged, whether the older scan claimed the directory before or after reading its
 * listing (see {@link ScanRaceFixture}). A dialect's test extends this class and says in {@link #database()} which
 * database to use, exactly as for {@link FsIndexConformanceTest}.
 */
public abstract class ScanClaimRaceConformanceTest extends ScanRaceFixture {

    // Protocol: a move never takes a name a newer scan wrote. A newer subtree scan's trunk can write one below a
    // directory an older scan found empty when it claimed it, and whose rows that older scan therefore never reads.
    @Test
    void olderScanDoesNotMoveARowOntoANameANewerSubtreeScanWrote() throws Exception {
        Path root = tree("b/", "c/", "c/x.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeB = walker.pauseBeforeListing(root.resolve("b"));

        ScanSession older = index.startScan(root.resolve("b"), with(walker));
        beforeB.awaitPaused();                     // has claimed b, which had no row below it
        Files.move(root.resolve("c"), root.resolve("b/b"));
        index.scan(root.resolve("b/b"));           // its trunk writes b/b under b
        beforeB.release();
        ScanResult resumed = older.await();        // finds c's directory at b/b: moving c's row there must not fail

        assertThat(resumed.errors()).isEmpty();
        index.scan(root);
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.orphans()).isEmpty();
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Feed: what an older scan records below a directory a newer scan moved meanwhile is recorded at the new path.
    // The newer scan has moved a/p to a/q but not yet claimed d below it, so the older scan still owns d's listing.
    @Test
    void olderScanRecordsWhatItListedBelowADirectoryANewerScanMovedAtTheNewPath() throws Exception {
        Path root = tree("a/p/d/", "a/p/d/x.txt", "seed.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long cursor = index.changeFeedEnd();
        Files.writeString(root.resolve("a/p/d/new.txt"), "listed before its directory moved");
        PausingWalker olderWalker = walker();
        PausingWalker.Pause afterD = olderWalker.pauseAfterListing(root.resolve("a/p/d"));
        PausingWalker newerWalker = walker();
        PausingWalker.Pause beforeQ = newerWalker.pauseBeforeListing(root.resolve("a/q"));

        ScanSession older = index.startScan(root, with(olderWalker));
        afterD.awaitPaused();                      // holds d's listing: new.txt, x.txt
        Files.move(root.resolve("a/p"), root.resolve("a/q"));
        ScanSession newer = index.startScan(root, with(newerWalker));
        beforeQ.awaitPaused();                     // has recorded a/p moved to a/q
        afterD.release();
        assertThat(older.await().errors()).isEmpty();
        beforeQ.release();
        assertThat(newer.await().errors()).isEmpty();

        Path added = root.resolve("a/q/d/new.txt");
        long id = index.lookup(added).orElseThrow().id();
        assertThat(ReplayedFeed.paths(index.changesSince(cursor, 100).changes()).get(id)).isEqualTo(added);
        assertIndexMatchesDisk(index, root);
    }

    // Protocol: an upsert applies only where row.scan_id <= scan, so an older listing never overwrites a newer one.
    @Test
    void olderScanDoesNotOverwriteAFileANewerScanRecorded() throws Exception {
        Path root = tree("d/", "d/f.txt", "d/g.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds f.txt at its first size
        write(root.resolve("d/f.txt"), 31);
        // A scan of the file itself: it writes f.txt's row but does not list d, so only the row's scan_id (not d's
        // listed_by) stands between the older scan's stale listing and the newer data.
        ScanResult newer = index.scan(root.resolve("d/f.txt"));
        afterD.release();
        older.await();

        FileEntry f = index.lookup(root.resolve("d/f.txt")).orElseThrow();
        assertThat(f.size()).isEqualTo(31);
        assertThat(f.scanId()).isEqualTo(newer.scanId());
        assertIndexMatchesDisk(index, root);
    }

    // Protocol: a listing writes a row only where scan_id <= scan, even in a directory the scan claimed before the
    // newer scan wrote the row (the listing's owner check passes: the newer scan never claimed the directory).
    @Test
    void olderListingNeverTakesARowANewerScanWroteAfterTheClaim() throws Exception {
        Path root = tree("d/", "d/f.txt", "d/g.txt");
        FsIndex index = openIndex();
        ScanResult first = index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeRoot = walker.pauseBeforeListing(root);

        ScanSession older = index.startScan(root, with(walker));
        beforeRoot.awaitPaused();                  // will claim d and list it only when it goes on
        write(root.resolve("d/f.txt"), 41);
        ScanResult newer = index.scan(root.resolve("d/f.txt"));   // writes d (trunk) and f.txt, claims neither d
        write(root.resolve("d/f.txt"), 42);       // a change no scan newer than the older one has seen
        beforeRoot.release();
        older.await();

        // Had the older listing taken f.txt over (ignoring scan_id), it would have overwritten it with 42.
        FileEntry f = index.lookup(root.resolve("d/f.txt")).orElseThrow();
        assertThat(f.size()).isEqualTo(41);
        assertThat(f.scanId()).isEqualTo(newer.scanId());
        // g.txt never changed, so no scan since the first rewrote it (a rescan writes only what changed).
        assertThat(index.lookup(root.resolve("d/g.txt")).orElseThrow().scanId()).isEqualTo(first.scanId());
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a listing applies only while its scan still owns the directory (listed_by = scan). A newer scan that
    // has listed it since and found a row unchanged wrote nothing to it, so no scan_id guard protects that row.
    @Test
    void olderListingDoesNotUndoWhatANewerScanFoundUnchanged() throws Exception {
        Path root = tree("d/", "d/f.txt", "d/g.txt", "d/h.txt");
        Path f = root.resolve("d/f.txt");
        Path g = root.resolve("d/g.txt");
        String fContent = Files.readString(f);
        String gContent = Files.readString(g);
        FileTime fTime = Files.getLastModifiedTime(f);
        FileTime gTime = Files.getLastModifiedTime(g);
        FsIndex index = openIndex();
        index.scan(root);
        write(f, 81);                              // the older scan will see f.txt changed
        Files.delete(g);                           // and g.txt gone
        PausingWalker walker = walker();
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        afterD.awaitPaused();                      // holds d's listing: f.txt changed, g.txt missing
        Files.writeString(f, fContent);            // both back exactly as the index records them
        Files.setLastModifiedTime(f, fTime);
        Files.writeString(g, gContent);
        Files.setLastModifiedTime(g, gTime);
        index.scan(root);                          // lists d, finds f.txt and g.txt unchanged: writes neither
        afterD.release();
        older.await();

        // Had the older listing applied, f.txt would be recorded at 81 bytes and g.txt swept.
        assertThat(index.lookup(f).orElseThrow().size()).isEqualTo(fContent.length());
        assertThat(index.lookup(g)).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: a scan reads listings ahead of claiming their directories; such a listing applies only if its scan then
    // claims the directory, which it cannot once a newer scan has listed it (the claim needs listed_by <= scan).
    @Test
    void listingReadBeforeItsDirectoryWasClaimedAppliesNothingOnceANewerScanListedIt() throws Exception {
        Path root = tree("a/", "a/x.txt", "p/", "p/d/", "p/d/f.txt", "p/d/g.txt", "p/d/h.txt");
        Path f = root.resolve("p/d/f.txt");
        Path g = root.resolve("p/d/g.txt");
        String fContent = Files.readString(f);
        String gContent = Files.readString(g);
        FileTime fTime = Files.getLastModifiedTime(f);
        FileTime gTime = Files.getLastModifiedTime(g);
        FsIndex index = openIndex();
        index.scan(root);
        write(f, 82);                              // the older scan will read d with f.txt changed
        Files.delete(g);                           // and g.txt gone
        PausingWalker walker = walker();
        PausingWalker.Pause beforeP = walker.pauseWalkerThreadBeforeListing(root.resolve("p"));
        PausingWalker.Pause afterD = walker.pauseWalkerThreadAfterListing(root.resolve("p/d"));
        CountDownLatch appliedA = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);

        ScanSession older = index.startScan(root, with(walker)
                .withListener(holdAfterApplying(root.resolve("a"), appliedA, go)));
        beforeP.awaitPaused();                     // its walker thread has read the root and a, not p
        assertThat(appliedA.await(30, TimeUnit.SECONDS)).isTrue();
        // Its scan thread has applied the root (claiming p) and a, and waits in the listener before taking p's listing.
        beforeP.release();
        afterD.awaitPaused();                      // read p, then d, before applying p's listing, which claims d
        Files.writeString(f, fContent);            // both back exactly as the index records them
        Files.setLastModifiedTime(f, fTime);
        Files.writeString(g, gContent);
        Files.setLastModifiedTime(g, gTime);
        index.scan(root.resolve("p/d"));           // a newer scan claims and lists d, finds f.txt, g.txt unchanged
        go.countDown();
        afterD.release();
        older.await();

        // Had the older scan taken d's listing without winning d's claim, f.txt would say 82 bytes and g.txt be swept.
        assertThat(index.lookup(f).orElseThrow().size()).isEqualTo(fContent.length());
        assertThat(index.lookup(g)).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }
}
