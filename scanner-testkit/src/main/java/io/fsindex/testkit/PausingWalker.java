package io.fsindex.testkit;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.Walker;
import io.fsindex.core.scan.ListingPause;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link Walker} that reads the real filesystem (through {@link NioWalker} or another walker) and can stop a scan at
 * an exact point, so a test can change the disk or run other scans while that scan is frozen there. This is how the
 * conformance suite builds deterministic races without sleeps.
 *
 * <p>A scan lists each directory with {@link #list} on a walker thread of its own, ahead of applying the listings on
 * its scan thread. Arm a pause for a directory <em>before</em> the scan lists it ({@link #pauseBeforeListing}) or
 * <em>after</em> it has read the listing but before the listing is applied to the index ({@link #pauseAfterListing})
 * — the latter is the classic race of a scan swapped out right after {@code readdir(2)}. A pause stops the walker
 * thread once the scan thread has applied every listing read before ({@link ListingPause}), so when
 * {@link Pause#awaitPaused()} returns the scan has claimed the directory (unless a newer scan owns it) and applied
 * everything listed before it, and does nothing more until released. The listing a pause after listing holds may
 * still have been read before its directory was claimed, as a scan's walker thread reads ahead. Typical use:
 * <pre>{@code
 * PausingWalker walker = new PausingWalker();
 * PausingWalker.Pause paused = walker.pauseAfterListing(root.resolve("d"));
 * ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
 * paused.awaitPaused();          // the older scan holds d's listing and has not applied it
 * Trees.delete(root.resolve("d"));
 * index.scan(root);              // a newer scan runs to completion meanwhile
 * paused.release();
 * older.await();
 * }</pre>
 *
 * <p>Each pause is one-shot: it stops the first scan (of those using this walker) that reaches the point, and lets
 * every later one through. Paths are compared after {@link Path#toAbsolutePath()} and {@link Path#normalize()}; scans
 * list real paths ({@link Path#toRealPath}), so arm pauses with real paths (a {@code @TempDir} may lie behind a link).
 * A pause after listing also stops a scan whose listing failed (the directory vanished or cannot be read); the failure
 * is rethrown when the pause is released. Before closing the index, call {@link #releaseAll()} so no scan stays
 * blocked. Waiting inside the walker is interruptible: an interrupted scan sees an {@link InterruptedIOException}.
 *
 * <p>This class is thread-safe.
 */
public final class PausingWalker extends ForwardingWalker {
    /** How long {@link Pause#awaitPaused()} waits before deciding the scan will never get there. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private final List<Pause> pauses = new CopyOnWriteArrayList<>();

    /** A walker over the real filesystem ({@link NioWalker}) with no pause armed. */
    public PausingWalker() {
        this(new NioWalker());
    }

    /** A walker that reads through {@code delegate} and pauses where told. */
    public PausingWalker(Walker delegate) {
        super(delegate);
    }

    /** Arms a one-shot pause: the first scan about to list {@code directory} stops before reading it. */
    public Pause pauseBeforeListing(Path directory) {
        return arm(directory, false, true);
    }

    /**
     * Arms a one-shot pause: the first scan to list {@code directory} stops after reading the listing (or failing to)
     * and before handing it to the index.
     */
    public Pause pauseAfterListing(Path directory) {
        return arm(directory, true, true);
    }

    /**
     * Arms a one-shot pause like {@link #pauseBeforeListing} that stops only the scan's walker thread, without waiting
     * for its scan thread: that goes on applying what was read before, until a test stops it elsewhere (in a
     * listener). With {@link #pauseWalkerThreadAfterListing} it stages a listing read ahead of its directory's claim.
     */
    public Pause pauseWalkerThreadBeforeListing(Path directory) {
        return arm(directory, false, false);
    }

    /**
     * Arms a one-shot pause like {@link #pauseAfterListing} that stops only the scan's walker thread, holding the
     * listing, without waiting for its scan thread (see {@link #pauseWalkerThreadBeforeListing}).
     */
    public Pause pauseWalkerThreadAfterListing(Path directory) {
        return arm(directory, true, false);
    }

    /**
     * Arms a one-shot pause: the first scan to read any attributes stops before reading them, which is before it
     * has written anything (a scan reads its trunk and root before it touches the index).
     */
    public Pause pauseBeforeFirstStat() {
        Pause pause = new Pause(null, false, true);
        pauses.add(pause);
        return pause;
    }

    /** Releases every pause, reached or not, so no scan using this walker blocks any more; for cleanup. */
    public void releaseAll() {
        pauses.forEach(Pause::release);
    }

    @Override
    public FileStat stat(Path path) throws IOException {
        hold(null, false);
        return super.stat(path);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        Path key = key(directory);
        hold(key, false);
        DirectoryListing listing;
        try {
            listing = super.list(directory);
        } catch (IOException e) {
            hold(key, true);
            throw e;
        }
        hold(key, true);
        return listing;
    }

    private Pause arm(Path directory, boolean afterListing, boolean scanCatchesUp) {
        Pause pause = new Pause(key(directory), afterListing, scanCatchesUp);
        pauses.add(pause);
        return pause;
    }

    private void hold(Path directory, boolean afterListing) throws InterruptedIOException {
        for (Pause p : pauses) {
            if (p.afterListing == afterListing && Objects.equals(p.directory, directory)
                    && p.taken.compareAndSet(false, true)) {
                p.block();
            }
        }
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /** One armed pause point; obtained from {@link #pauseBeforeListing}, {@link #pauseAfterListing} and the like. */
    public static final class Pause {
        private final Path directory;
        private final boolean afterListing;
        private final boolean scanCatchesUp;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Pause(Path directory, boolean afterListing, boolean scanCatchesUp) {
            this.directory = directory;
            this.afterListing = afterListing;
            this.scanCatchesUp = scanCatchesUp;
        }

        /**
         * Waits (at most {@link #DEFAULT_WAIT}) until a scan is stopped here.
         *
         * @throws IllegalStateException if no scan got here in time (a scan failed early, or took another path)
         */
        public void awaitPaused() throws InterruptedException {
            awaitPaused(DEFAULT_WAIT);
        }

        /**
         * Waits at most {@code timeout} until a scan is stopped here.
         *
         * @throws IllegalStateException if no scan got here in time
         */
        public void awaitPaused(Duration timeout) throws InterruptedException {
            if (!reached.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("no scan paused " + this + " within " + timeout);
            }
        }

        /** Returns true once a scan has stopped here (it may since have been released). */
        public boolean isReached() {
            return reached.getCount() == 0;
        }

        /** Lets the stopped scan go on; if none has arrived yet, the pause is disarmed and will not stop one. */
        public void release() {
            taken.set(true);
            released.countDown();
        }

        private void block() throws InterruptedIOException {
            // The scan applies what its walker thread read before this point while that thread is here: let it, so
            // the index is as the scan left it after the listings before this one until the pause is released.
            if (scanCatchesUp) {
                ListingPause.awaitEarlierListingsApplied();
            }
            reached.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException io = new InterruptedIOException("interrupted while paused " + this);
                io.initCause(e);
                throw io;
            }
        }

        @Override
        public String toString() {
            return directory == null ? "before the first stat" : (afterListing ? "after listing " : "before listing ")
                    + directory;
        }
    }
}
