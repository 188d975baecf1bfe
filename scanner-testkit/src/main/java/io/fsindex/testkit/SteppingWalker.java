package io.fsindex.testkit;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.scan.ListingPause;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.testkit.SteppedScan.Event;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wraps {@link NioWalker} and stops its scan at its first filesystem access (before the scan writes anything),
 * before each listing and after each listing (also a failed one), until the scheduler lets it take one step.
 */
final class SteppingWalker extends ForwardingWalker {
    private final SteppedScan scan;
    private final Path treeRoot;
    private final BlockingQueue<Event> events;
    private final Semaphore steps = new Semaphore(0);
    private final AtomicBoolean started = new AtomicBoolean();
    /** The last listing of each directory this walker read. */
    final Map<Path, List<WalkedEntry>> listings = new ConcurrentHashMap<>();
    private volatile boolean freeRunning;

    SteppingWalker(SteppedScan scan, Path treeRoot, BlockingQueue<Event> events) {
        this.scan = scan;
        this.treeRoot = treeRoot;
        this.events = events;
    }

    @Override
    public FileStat stat(Path path) throws IOException {
        if (started.compareAndSet(false, true)) {
            stop("start");
        }
        return super.stat(path);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        String where = treeRoot.relativize(directory).toString();
        stop("before listing /" + where);
        DirectoryListing listing;
        try {
            listing = super.list(directory);
        } catch (IOException e) {
            stop("after failing to list /" + where + " (" + e.getClass().getSimpleName() + ")");
            throw e;
        }
        listings.put(directory, listing.entries());
        stop("after listing /" + where);
        return listing;
    }

    /** Lets the scan take one step. */
    void step() {
        steps.release();
    }

    /** Lets the scan run to its end without stopping; for cleanup. */
    void runFree() {
        freeRunning = true;
        steps.release(Integer.MAX_VALUE / 2);
    }

    private void stop(String where) throws InterruptedIOException {
        if (freeRunning) {
            return;
        }
        // Let the scan thread apply what the walker thread read before it stops here, so that only one scan
        // moves at a time and each stop is a state the schedule can change the disk and start scans in.
        ListingPause.awaitEarlierListingsApplied();
        try {
            events.put(new Event(scan, where));
            steps.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while stopped " + where);
        }
    }
}
