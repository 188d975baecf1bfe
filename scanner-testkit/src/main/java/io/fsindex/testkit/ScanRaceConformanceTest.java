package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deterministic races between scans and a changing filesystem, on a real database. Each test freezes an older scan at
 * an exact point with a {@link PausingWalker}, changes the disk and runs newer scans, then lets the older scan finish
 * and checks that it neither failed nor undid anything newer: the concurrent-scan protocol's guarantees, one rule per
 * test. A dialect's test extends this class and says in {@link #database()} which database to use, exactly as for
 * {@link FsIndexConformanceTest}.
 */
public abstract class ScanRaceConformanceTest extends IndexTest {

    private final List<PausingWalker> walkers = new ArrayList<>();
    private final List<CountDownLatch> gates = new ArrayList<>();
    private IndexInvariants invariants;

    /** Runs before IndexTest closes the indexes (a subclass's @AfterEach comes first), so no scan stays blocked. */
    @AfterEach
    void releaseScans() {
        walkers.forEach(PausingWalker::releaseAll);
        gates.forEach(CountDownLatch::countDown);
    }

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
        FsIndex index = openIndex();
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

    // Protocol (beyond the seed): a partial scan bumps its trunk, claims only its root: only that stops older scans.
    @Test
    void olderFullScanRefreshesTheTrunkOfANewerPartialScanButLeavesItsSubtreeAlone() throws Exception {
        Path root = tree("a/", "a/x.txt", "a/gone.txt", "a/b/", "a/b/sibling.txt", "a/b/c/", "a/b/c/in.txt",
                "a/b/c/old.txt", "side/", "side/s.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause beforeA = walker.pauseBeforeListing(root.resolve("a"));

        ScanSession older = index.startScan(root, with(walker));
        beforeA.awaitPaused();                     // has claimed a, not yet listed it
        write(root.resolve("a/x.txt"), 11);
        Trees.delete(root.resolve("a/gone.txt"));
        Trees.create(root, "a/new.txt", "a/b/c/new-in-c.txt");
        write(root.resolve("a/b/sibling.txt"), 12);
        Trees.delete(root.resolve("a/b/c/old.txt"));
        index.scan(root.resolve("a/b/c"));
        List<FileEntry> asThePartialScanLeftIt = index.children(root.resolve("a/b/c"));
        Trees.create(root, "a/b/c/late.txt");      // only the older scan could see these two changes in c
        write(root.resolve("a/b/c/in.txt"), 13);
        beforeA.release();
        older.await();

        assertThat(index.lookup(root.resolve("a/x.txt")).orElseThrow().size()).isEqualTo(11);
        assertThat(index.lookup(root.resolve("a/gone.txt"))).isEmpty();
        assertThat(index.lookup(root.resolve("a/new.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("a/b/sibling.txt")).orElseThrow().size()).isEqualTo(12);
        // The intersection with the newer scan is as if the older scan never ran: c holds the partial scan's view.
        List<FileEntry> c = index.children(root.resolve("a/b/c"));
        assertThat(c).extracting(FileEntry::name).containsExactly("in.txt", "new-in-c.txt");
        assertThat(c).isEqualTo(asThePartialScanLeftIt);
        assertThat(c.get(0).size()).isEqualTo("a/b/c/in.txt".length());
        assertThat(invariants.staleRows()).isEmpty();

        index.scan(root);
        assertIndexMatchesDisk(index, root);
    }

    // Protocol (beyond the seed): a partial scan writes its trunk without claiming it, even below a directory an
    // older scan inserted and has yet to list, which must then leave that row alone. (Found by the property test with
    // a bulk loader, which took such a directory for empty and met the row as a duplicate name.)
    @Test
    void olderScanListingADirectoryItInsertedLeavesTheRootOfANewerPartialScanBelowItAlone() throws Exception {
        Path root = tree("keep.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.create(root, "d/", "d/a/", "d/a/in.txt", "d/b.txt", "d/c/", "d/c/x.txt");
        PausingWalker walker = walker();
        PausingWalker.Pause beforeD = walker.pauseBeforeListing(root.resolve("d"));

        ScanSession older = index.startScan(root, with(walker));
        beforeD.awaitPaused();                     // has inserted and claimed d, not yet listed it
        index.scan(root.resolve("d/a"));           // puts d/a and d/a/in.txt below d
        FileEntry partialRoot = index.lookup(root.resolve("d/a")).orElseThrow();
        beforeD.release();
        ScanResult resumed = older.await();

        assertThat(resumed.errors()).isEmpty();
        assertThat(index.lookup(root.resolve("d/a")).orElseThrow().id()).isEqualTo(partialRoot.id());
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
        assertThat(invariants.orphans()).isEmpty();
    }

    // The same for a huge directory the older scan inserted, listed and applied in parts: its parts read no rows and
    // skip the final check for missing rows on every engine, so the newer partial scan's root must be left alone by the
    // part that lists it (inserted with conflict handling, or loaded and the load retried as inserts).
    @Test
    void olderScanListingInPartsADirectoryItInsertedLeavesTheRootOfANewerPartialScanBelowItAlone() throws Exception {
        Path root = tree("keep.txt");
        FsIndex index = openIndex();
        index.scan(root);
        List<String> spec = new ArrayList<>(List.of("d/", "d/a/", "d/a/in.txt"));
        for (int i = 0; i < 10; i++) {
            spec.add("d/f" + i + ".txt");
        }
        Trees.create(root, spec.toArray(String[]::new));
        PausingWalker walker = walker();
        PausingWalker.Pause beforeD = walker.pauseBeforeListing(root.resolve("d"));

        IndexInternals.of(index).listingPartEntries(3);
        ScanSession older = index.startScan(root, with(walker));
        beforeD.awaitPaused();                     // has inserted and claimed d, not yet listed it
        index.scan(root.resolve("d/a"));           // puts d/a and d/a/in.txt below d
        FileEntry partialRoot = index.lookup(root.resolve("d/a")).orElseThrow();
        beforeD.release();
        ScanResult resumed = older.await();

        assertThat(resumed.errors()).isEmpty();
        assertThat(index.lookup(root.resolve("d/a")).orElseThrow().id()).isEqualTo(partialRoot.id());
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
        assertThat(invariants.orphans()).isEmpty();
        assertThat(index.scan(root).added()).isZero();
    }

    // Protocol: the listed_by gate and scan_id guard keep an older partial scan out of what a newer full scan listed.
    @Test
    void olderPartialScanResumingAfterANewerFullScanChangesNothing() throws Exception {
        Path root = tree("a/", "a/x.txt", "a/b/", "a/b/c/", "a/b/c/in.txt", "a/b/c/old.txt", "a/b/c/sub/",
                "a/b/c/sub/s.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = walker();
        PausingWalker.Pause afterC = walker.pauseAfterListing(root.resolve("a/b/c"));

        ScanSession older = index.startScan(root.resolve("a/b/c"), with(walker));
        afterC.awaitPaused();                      // holds c's listing: in.txt, old.txt, sub
        Trees.delete(root.resolve("a/b/c/old.txt"));
        Trees.delete(root.resolve("a/b/c/sub"));
        write(root.resolve("a/b/c/in.txt"), 21);
        write(root.resolve("a/x.txt"), 22);
        Trees.create(root, "a/b/c/new.txt");
        index.scan(root);
        java.util.Set<IndexInvariants.RawRow> asTheNewerScanLeftIt = new java.util.HashSet<>(invariants.rows());
        afterC.release();
        older.await();

        assertThat(index.lookup(root.resolve("a/b/c/old.txt"))).isEmpty();
        assertThat(index.lookup(root.resolve("a/b/c/sub"))).isEmpty();
        assertThat(index.lookup(root.resolve("a/b/c/in.txt")).orElseThrow().size()).isEqualTo(21);
        // Its listing of c, claimed by the newer scan since, applies nothing; its trunk it wrote before the newer scan.
        assertThat(new java.util.HashSet<>(invariants.rows())).isEqualTo(asTheNewerScanLeftIt);
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
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

    // Protocol: an older scan writes its trunk and root only where no newer scan has listed their parent: the newer
    // scan saw the entry there, and what it saw stands even where it found the row unchanged and wrote nothing.
    @Test
    void olderPartialScanDoesNotOverwriteAnEntryANewerScanFoundUnchanged() throws Exception {
        Path root = tree("d/", "d/f.txt", "d/g.txt");
        Path f = root.resolve("d/f.txt");
        String fContent = Files.readString(f);
        FileTime fTime = Files.getLastModifiedTime(f);
        FsIndex index = openIndex();
        index.scan(root);
        write(f, 91);                              // the older scan will read f.txt's attributes like this
        CountDownLatch statted = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        gates.add(go);

        ScanSession older = index.startScan(f, ScanOptions.defaults()
                .withWalker(new PauseAfterStat(f, statted, go)));
        assertThat(statted.await(30, TimeUnit.SECONDS)).isTrue();   // read f.txt at 91 bytes, wrote nothing yet
        Files.writeString(f, fContent);            // back exactly as the index records it
        Files.setLastModifiedTime(f, fTime);
        index.scan(root);                          // lists d, finds f.txt unchanged: writes nothing to it
        go.countDown();
        older.await();

        // Had the older scan's root upsert applied (f.txt's scan_id is still the first scan's), it would say 91. The
        // upsert's own parent check (parent.listed_by <= scan, which its insert and update paths share) stops it.
        assertThat(index.lookup(f).orElseThrow().size()).isEqualTo(fContent.length());
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
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

    // Protocol: removing a missing partial-scan root marks it only where scan_id <= scan; a newer scan's row stays.
    @Test
    void removingAMissingRootKeepsTheRowANewerScanWrote() throws Exception {
        Path root = tree("a/", "a/f.txt", "keep.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("a"));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);

        ScanSession older = index.startScan(root.resolve("a"),
                ScanOptions.defaults().withRemoveMissingRoot(true).withListener(holdAtStart(started, go)));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();   // found a missing, about to remove its row
        Trees.create(root, "a/", "a/g.txt");
        index.scan(root.resolve("a"));
        go.countDown();
        older.await();

        assertThat(index.lookup(root.resolve("a"))).isPresent();
        assertThat(index.lookup(root.resolve("a/g.txt"))).isPresent();
        assertIndexMatchesDisk(index, root);
        assertThat(invariants.staleRows()).isEmpty();
    }

    // Protocol: removing a missing root takes the parent guard too (parent.listed_by <= scan): a newer scan that listed
    // the parent and found the root unchanged wrote nothing to it, so its scan_id alone would not keep it.
    @Test
    void removingAMissingRootKeepsARowANewerScanFoundUnchanged() throws Exception {
        Path root = tree("a/", "a/f.txt", "keep.txt");
        Path a = root.resolve("a");
        Path f = root.resolve("a/f.txt");
        String fContent = Files.readString(f);
        FileTime fTime = Files.getLastModifiedTime(f);
        FileTime aTime = Files.getLastModifiedTime(a);
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(a);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);

        ScanSession older = index.startScan(a,
                ScanOptions.defaults().withRemoveMissingRoot(true).withListener(holdAtStart(started, go)));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();   // found a missing, about to remove its row
        Files.createDirectory(a);                  // back exactly as the index records it
        Files.writeString(f, fContent);
        Files.setLastModifiedTime(f, fTime);
        Files.setLastModifiedTime(a, aTime);
        index.scan(root);                          // lists the root and a, finds both unchanged: writes neither
        go.countDown();
        older.await();

        assertThat(index.lookup(a)).isPresent();
        assertThat(index.lookup(f)).isPresent();
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

    // Protocol: a partial scan hangs its root only under trunk rows that are directories (a newer scan's file wins).
    @Test
    void olderPartialScanDoesNotHangItsRootUnderATrunkEntryANewerScanRecordedAsAFile() throws Exception {
        Path root = tree("d", "other.txt");       // d starts as a file
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("d"));
        Trees.create(root, "d/", "d/c/", "d/c/f.txt");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);

        ScanSession older = index.startScan(root.resolve("d/c"), ScanOptions.defaults()
                .withListener(holdAtStart(started, go)));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();   // resolved d/c, has not written its trunk yet
        Trees.delete(root.resolve("d"));
        write(root.resolve("d"), 61);
        index.scan(root);                          // records d as a file (never a directory: listed_by 0)
        Trees.delete(root.resolve("d"));
        Trees.create(root, "d/", "d/c/", "d/c/f.txt");
        go.countDown();
        older.await();

        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(index.lookup(root.resolve("d")).orElseThrow().kind()).isEqualTo(FileKind.FILE);
        index.scan(root);
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

    /** Opens an index as {@link IndexTest#openIndex()} does, with the invariant checks on its tables. */
    @Override
    protected FsIndex openIndex(java.util.function.UnaryOperator<FsIndex.Builder> configure) {
        FsIndex index = super.openIndex(configure);
        invariants = new IndexInvariants(database(), prefix());
        return index;
    }

    /**
     * A pausing walker that is released after the test, so no scan stays blocked. It hands out listings sorted by
     * name, so a scan lists sibling directories in name order and each test knows which comes first.
     */
    protected PausingWalker walker() {
        PausingWalker walker = new PausingWalker(new NameOrderWalker());
        walkers.add(walker);
        return walker;
    }

    /** The real filesystem, with each listing sorted by name. */
    private static final class NameOrderWalker extends ForwardingWalker {

        @Override
        public DirectoryListing list(Path directory) throws IOException {
            DirectoryListing listing = super.list(directory);
            List<WalkedEntry> sorted = new ArrayList<>(listing.entries());
            sorted.sort(Comparator.comparing(WalkedEntry::name));
            return new DirectoryListing(sorted, listing.problems());
        }
    }

    /** The real filesystem, stopping once, right after reading the attributes of {@code path}, until {@code go}. */
    private static final class PauseAfterStat extends ForwardingWalker {
        private final Path path;
        private final CountDownLatch statted;
        private final CountDownLatch go;

        PauseAfterStat(Path path, CountDownLatch statted, CountDownLatch go) {
            this.path = path;
            this.statted = statted;
            this.go = go;
        }

        @Override
        public io.fsindex.api.FileStat stat(Path p) throws IOException {
            io.fsindex.api.FileStat stat = super.stat(p);
            if (p.equals(path) && statted.getCount() > 0) {
                statted.countDown();
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("the test never let the scan go on");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
            }
            return stat;
        }
    }

    private static ScanOptions with(PausingWalker walker) {
        return ScanOptions.defaults().withWalker(walker);
    }

    private void assertIndexMatchesDisk(FsIndex index, Path root) {
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(invariants.staleRowsOfScansNotRunning()).isEmpty();
    }

    private static void write(Path file, int size) throws IOException {
        Files.writeString(file, "x".repeat(size));
    }

    /** A listener that stops its scan once it has applied {@code directory}'s listing, until {@code go}. */
    private ScanListener holdAfterApplying(Path directory, CountDownLatch applied, CountDownLatch go) {
        gates.add(go);
        return new ScanListener() {
            @Override
            public void progress(io.fsindex.api.ScanProgress progress) {
                if (!directory.equals(progress.current())) {
                    return;
                }
                applied.countDown();
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never let the scan go on");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    /**
     * A listener that stops its scan when it starts: after the root is resolved (or found missing) and before
     * anything is written. The walker cannot pause there, as no directory has been listed yet.
     */
    private ScanListener holdAtStart(CountDownLatch started, CountDownLatch go) {
        gates.add(go);
        return new ScanListener() {
            @Override
            public void started(long scanId, Path scanRoot) {
                started.countDown();
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never let scan " + scanId + " go on");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
