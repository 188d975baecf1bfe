package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;

/**
 * What the deterministic scan-race suites share: a pausing walker that lists in name order, listeners that hold a scan
 * at a chosen point, and the invariant checks on the index's tables. Each race test freezes an older scan at an exact
 * point, changes the disk and runs newer scans, then lets the older scan finish and checks that it neither failed nor
 * undid anything newer: the concurrent-scan protocol's guarantees, one rule per test. Everything held is released after
 * each test, so no scan stays blocked.
 */
public abstract class ScanRaceFixture extends IndexTest {

    private final List<PausingWalker> walkers = new ArrayList<>();
    final List<CountDownLatch> gates = new ArrayList<>();
    IndexInvariants invariants;

    /** Runs before IndexTest closes the indexes (a subclass's @AfterEach comes first), so no scan stays blocked. */
    @AfterEach
    void releaseScans() {
        walkers.forEach(PausingWalker::releaseAll);
        gates.forEach(CountDownLatch::countDown);
        if (invariants != null) {
            invariants.close();
        }
    }

    /** Opens an index as {@link IndexTest#openIndex()} does, with the invariant checks on its tables. */
    @Override
    protected FsIndex openIndex(java.util.function.UnaryOperator<FsIndex.Builder> configure) {
        FsIndex index = super.openIndex(configure);
        if (invariants != null) {
            invariants.close();
        }
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

    static ScanOptions with(PausingWalker walker) {
        return ScanOptions.defaults().withWalker(walker);
    }

    void assertIndexMatchesDisk(FsIndex index, Path root) {
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(invariants.childrenOfNonDirectories()).isEmpty();
        assertThat(invariants.staleRowsOfScansNotRunning()).isEmpty();
    }

    static void write(Path file, int size) throws IOException {
        Files.writeString(file, "x".repeat(size));
    }

    /** A listener that stops its scan once it has applied {@code directory}'s listing, until {@code go}. */
    ScanListener holdAfterApplying(Path directory, CountDownLatch applied, CountDownLatch go) {
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
    ScanListener holdAtStart(CountDownLatch started, CountDownLatch go) {
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
