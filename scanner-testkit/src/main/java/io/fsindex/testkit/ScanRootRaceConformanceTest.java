package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Races between full and partial scans over trunks and roots: a partial scan's trunk and root, written without a claim,
 * and a missing root's removal leave alone what a newer scan listed, and an older full scan leaves a newer partial
 * scan's subtree alone (see {@link ScanRaceFixture}). A dialect's test extends this class and says in
 * {@link #database()} which database to use, exactly as for {@link FsIndexConformanceTest}.
 */
public abstract class ScanRootRaceConformanceTest extends ScanRaceFixture {

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
    // part that lists it (inserted with conflict handling, or loaded and the load retried as inserts), and not recorded
    // added by the older scan.
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
        long cursor = index.changeFeedEnd();
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
        assertThat(index.changesSince(cursor, 1_000).changes()).as("d/a is the partial scan's, added once")
                .filteredOn(ch -> ch.path().equals(root.resolve("d/a")))
                .extracting(ch -> ch.type() + " " + ch.id()).containsExactly("ADDED " + partialRoot.id());
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
}
