package io.fsindex.core.scan;
import io.fsindex.api.FileSink;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * The walk, for every walker and every sink: a walker thread lists directories depth first, ahead of the scan
 * thread, into a bounded queue, while the scan thread applies the listings in the same order, in groups, so that
 * reading the disk and writing the database overlap. The walker thread lists every directory it finds, claimed or
 * not, so a listing may be read before its directory is claimed: the scan thread applies a listing only for a
 * directory it claimed (in an earlier group, or earlier in the same group, which the sink resolves in its
 * transaction) and drops the rest. A claim fails where a newer scan has listed the directory, even after this
 * scan read it, and the sink's owner check at apply time keeps out a listing whose directory a newer scan claimed
 * after this one did. A walker that pauses the scan inside {@link Walker#list} (a test's) stops only the walker
 * thread; it first lets the scan thread apply what was read before ({@link #awaitScanThreadIdle}), so a pause
 * stops the scan at an exact point.
 */
final class Walk {
    private final Scan scan;
    private final long scanId;
    private final Walker walker;
    private final ScanOptions options;
    private final int partEntries;
    /** The identities of the scan root and every directory above it, the first links a loop can lead back to. */
    private final Ancestors rootAndTrunk;
    private final LinkFollower links;
    private static final int QUEUE_LISTINGS = 256;
    /** How many entries the queued listings may hold together: a few parts of a huge directory, not all. */
    private final int queueEntries;
    private final java.util.concurrent.Semaphore room;
    private final FileSink sink;
    private final Directory top;
    private final java.util.concurrent.BlockingQueue<Listed> queue =
            new java.util.concurrent.ArrayBlockingQueue<>(QUEUE_LISTINGS);
    private volatile boolean stop;
    /** True while the scan thread waits for a listing with nothing left to apply; guarded by this. */
    private boolean scanThreadIdle;
    /** Directories claimed in applied groups whose listings have not been taken from the queue yet. */
    private final java.util.Map<Path, Directory> claimed = new java.util.HashMap<>();

    /** Whether {@link #top} is the scan root (its failure fails the scan). */
    private final boolean topIsRoot;
    /** Whether the walker thread lists {@link #top} only (the first walk of a directory scan). */
    private final boolean topOnly;

    /**
     * A walk from {@code top}, whose ancestors (itself included) are {@code rootAndTrunk}; {@code topIsRoot} if it is
     * the scan root, and {@code topOnly} to list nothing but it.
     */
    Walk(Scan scan, FileSink sink, Directory top, Ancestors rootAndTrunk, boolean topIsRoot, boolean topOnly) {
        this.topIsRoot = topIsRoot;
        this.topOnly = topOnly;
        this.scan = scan;
        this.scanId = scan.scanId();
        this.walker = scan.walker();
        this.options = scan.options();
        this.partEntries = scan.partEntries();
        this.rootAndTrunk = rootAndTrunk;
        this.links = new LinkFollower(walker);
        this.queueEntries = 2 * partEntries;
        this.room = new java.util.concurrent.Semaphore(queueEntries);
        this.sink = sink;
        this.top = top;
    }

    public void run() {
        Thread producer = new Thread(this::produce, "fsindex-walk-" + scanId);
        producer.setDaemon(true);
        producer.start();
        try {
            consume();
        } finally {
            stop = true;
            producer.interrupt();
            queue.clear();
            try {
                producer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The directory whose listing comes in parts, while its parts come; null if this scan does not own it. */
    private Directory partsOf;
    private FileSink.ListingInParts parts;

    /** Applies one part of {@link #partsOf}'s listing, or what stopped it from being listed. */
    private void applyPart(Listed l) {
        if (partsOf == null) {
            return;                          // not claimed by this scan
        }
        if (l.entries() == null) {
            scan.listingApplied(partsOf, parts.applied());
            failed(partsOf, l);
            return;
        }
        l.problems().forEach(scan::report);
        scan.checkNotCancelled();
        FileSink.Applied a = parts.applyPart(l.entries(), l.last());
        for (Directory sub : a.subdirectories()) {
            claimed.put(sub.path(), sub);
        }
        if (l.last()) {
            scan.listingApplied(partsOf, parts.applied());
        }
    }

    /** The group of listings being gathered for one transaction. */
    private final List<Path> paths = new ArrayList<>();
    private final List<Directory> dirs = new ArrayList<>();
    private final List<List<WalkedEntry>> listings = new ArrayList<>();
    private final java.util.Set<Path> inGroup = new java.util.HashSet<>();
    private int entries;

    private void consume() {
        claimed.put(top.path(), top);
        while (true) {
            scan.checkNotCancelled();
            Listed l = paths.isEmpty() ? take() : queue.poll();
            if (l != null) {
                room.release(weight(l));
            }
            if (l == null || l == Listed.END || paths.size() >= Scan.GROUP_DIRECTORIES || entries >= Scan.GROUP_ENTRIES) {
                applyGroup();
                if (l == null) {
                    continue;
                }
                if (l == Listed.END) {
                    return;
                }
            }
            if (l.crash() != null) {
                throw l.crash();
            }
            if (!l.first() || !l.last()) {
                // A listing in parts: each is applied on its own, after everything before it.
                if (l.first()) {
                    applyGroup();
                    partsOf = claimed.remove(l.path());
                    parts = partsOf == null ? null : sink.applyInParts(partsOf);
                }
                applyPart(l);
                continue;
            }
            Directory dir = claimed.remove(l.path());
            boolean parentInGroup = dir == null && inGroup.contains(l.path().getParent());
            if (l.entries() == null && parentInGroup) {
                // A failed listing needs its directory's row: apply the group that may claim it first.
                applyGroup();
                dir = claimed.remove(l.path());
                parentInGroup = false;
            }
            if (dir == null && !parentInGroup) {
                continue;                    // not claimed by this scan: a newer scan lists it, or it is gone
            }
            if (l.entries() == null) {
                failed(dir, l);
                continue;
            }
            l.problems().forEach(scan::report);
            paths.add(l.path());
            dirs.add(dir);
            listings.add(l.entries());
            inGroup.add(l.path());
            entries += l.entries().size();
        }
    }

    /**
     * Takes the next listing, waiting for the walker thread if it has none ready. Idle is cleared in the same
     * critical section that takes the listing: a pausing walker ({@link #awaitScanThreadIdle}) must never see the
     * queue empty and the scan thread idle while the scan thread holds a listing it has not applied yet.
     */
    private Listed take() {
        Listed ready = queue.poll();
        if (ready != null) {
            return ready;
        }
        synchronized (this) {
            try {
                while (true) {
                    Listed l = queue.poll();
                    if (l != null) {
                        scanThreadIdle = false;
                        return l;
                    }
                    scanThreadIdle = true;
                    notifyAll();
                    wait();
                }
            } catch (InterruptedException e) {
                scanThreadIdle = false;
                Thread.currentThread().interrupt();
                throw new CancellationException("scan " + scanId + " was cancelled; nothing was deleted");
            }
        }
    }

    /** Queues {@code l} and wakes the scan thread if it waits for it ({@link #take}). */
    private void putAndNotify(Listed l) throws InterruptedException {
        queue.put(l);
        synchronized (this) {
            notifyAll();
        }
    }

    /**
     * On the walker thread: waits until the scan thread has applied everything queued and waits for more. The
     * walker thread queues nothing meanwhile, so once that holds it holds until the walker thread goes on.
     */
    private synchronized void awaitScanThreadIdle() throws InterruptedIOException {
        try {
            while (!(scanThreadIdle && queue.isEmpty()) && !stop) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the scan thread stopped");
        }
    }

    /** The subdirectories claimed whose listings this walk did not read (all of them, after a top-only walk). */
    List<Directory> claimedNotListed() {
        return new ArrayList<>(claimed.values());
    }

    private void failed(Directory dir, Listed l) {
        if (dir == top && topIsRoot) {
            if (l.vanished() && l.replacement() != null && l.failure() == null) {
                throw new ScanFailedException("scan root was replaced by a " + l.replacement().kind()
                        + " while scanning: " + dir.path() + "; nothing was deleted", null);
            }
            throw new ScanFailedException(l.vanished()
                    ? "scan root vanished while scanning: " + dir.path() + "; nothing was deleted"
                    : "scan root cannot be listed: " + dir.path() + " (" + l.failure() + "); nothing was deleted",
                    l.failure());
        }
        if (l.vanished()) {
            sink.vanished(dir, l.replacement());
        } else {
            scan.report(new ScanError(dir.path(), l.failure() instanceof AccessDeniedException
                    ? ScanError.Reason.ACCESS_DENIED : ScanError.Reason.IO_ERROR,
                    "cannot list directory (" + l.failure() + "); its rows were kept as they were"));
            sink.unreadable(dir);
        }
    }

    /** Applies the gathered group of listings, if any, in one transaction, and starts a new group. */
    private void applyGroup() {
        if (paths.isEmpty()) {
            return;
        }
        scan.checkNotCancelled();
        List<FileSink.Applied> results = sink.applyListings(paths, dirs, listings);
        // A directory claimed earlier in the group is known from its parent's result, which comes first.
        java.util.Map<Path, Directory> claimedInGroup = new java.util.HashMap<>();
        for (int g = 0; g < results.size(); g++) {
            FileSink.Applied a = results.get(g);
            Directory dir = dirs.get(g) != null ? dirs.get(g) : claimedInGroup.remove(paths.get(g));
            if (a == null || dir == null) {
                continue;                    // its parent, earlier in the group, did not claim it
            }
            scan.listingApplied(dir, a);
            for (Directory sub : a.subdirectories()) {
                (inGroup.contains(sub.path()) ? claimedInGroup : claimed).put(sub.path(), sub);
            }
        }
        paths.clear();
        dirs.clear();
        listings.clear();
        inGroup.clear();
        entries = 0;
    }

    /** The walker thread: lists depth first from the top. */
    private void produce() {
        WALKER_THREAD_OF.set(this);
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {top.path(), rootAndTrunk});
        try {
            while (!stack.isEmpty() && !stop) {
                Object[] next = stack.pop();
                List<Object[]> subdirectories = listOne((Path) next[0], (Ancestors) next[1]);
                if (topOnly) {
                    break;                       // a directory scan walks what the top's listing claimed later
                }
                for (int i = subdirectories.size() - 1; i >= 0; i--) {
                    stack.push(subdirectories.get(i));
                }
            }
            if (!stop) {
                enqueue(Listed.END);
            }
        } catch (InterruptedException e) {
            // The scan thread stopped: nothing more to list.
        } catch (RuntimeException | Error e) {
            RuntimeException crash = e instanceof RuntimeException r ? r : new IllegalStateException(e);
            try {
                putAndNotify(new Listed(null, null, null, null, false, null, crash, true, true));
            } catch (InterruptedException ignored) {
                // The scan thread stopped already.
            }
        } finally {
            WALKER_THREAD_OF.remove();
        }
    }

    /**
     * Lists one directory into the queue, in parts if it is large (a part is queued once the next one is read,
     * so the last can be marked), and returns its subdirectories to list, each with its ancestors.
     */
    private List<Object[]> listOne(Path path, Ancestors ancestors) throws InterruptedException {
        List<Object[]> subdirectories = new ArrayList<>();
        Listed[] held = {null};
        boolean[] first = {true};
        try {
            walker.list(path, partEntries, part -> {
                List<ScanError> problems = new ArrayList<>(part.problems());
                List<WalkedEntry> entries = options.followSymlinks()
                        ? links.follow(path, part.entries(), ancestors, problems::add) : part.entries();
                for (WalkedEntry e : entries) {
                    if (e.isReadable() && e.stat().isDirectory()) {
                        subdirectories.add(new Object[] {path.resolve(e.name()),
                                new Ancestors(e.stat().fileKey(), ancestors)});
                    }
                }
                if (held[0] != null) {
                    put(held[0]);
                    first[0] = false;
                }
                held[0] = Listed.part(path, entries, problems, first[0], false);
            });
        } catch (InterruptedIOException e) {
            throw new InterruptedException(e.getMessage());
        } catch (NoSuchFileException | NotDirectoryException e) {
            return failedAfter(held[0], Listed.failed(path, e, true, replacement(path), held[0] == null));
        } catch (IOException e) {
            return failedAfter(held[0], Listed.failed(path, e, false, null, held[0] == null));
        }
        if (!options.followSymlinks()) {
            FileStat now = statOrNull(path);
            if (now != null && !now.isDirectory()) {
                // Replaced, maybe by a link to a directory, which listing would have followed: what was listed
                // may not be this directory's content, so the part not queued yet is dropped.
                return failedAfter(null, Listed.failed(path, null, true, now, first[0]));
            }
        }
        Listed last = held[0];
        enqueue(last == null ? Listed.part(path, List.of(), List.of(), true, true)
                : Listed.part(path, last.entries(), last.problems(), last.first(), true));
        return subdirectories;
    }

    /** Queues the part read before a failure, then the failure; nothing below the directory is listed. */
    private List<Object[]> failedAfter(Listed part, Listed failure) throws InterruptedException {
        if (part != null) {
            enqueue(part);
        }
        enqueue(failure);
        return List.of();
    }

    /** Queues {@code l} once the queue has room for its entries. */
    private void enqueue(Listed l) throws InterruptedException {
        room.acquire(weight(l));
        putAndNotify(l);
    }

    private int weight(Listed l) {
        return l.entries() == null ? 0 : Math.min(l.entries().size(), queueEntries);
    }

    private void put(Listed l) throws InterruptedIOException {
        try {
            enqueue(l);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("the scan thread stopped");
        }
    }

    /**
     * What the walker thread read for one directory, in the order the scan must apply it: its listing, or one part of
     * it ({@code first}: no part of the directory came before; {@code last}: none comes after), or why it could not be
     * listed (then possibly after some parts).
     */
    private record Listed(Path path, List<WalkedEntry> entries, List<ScanError> problems, IOException failure,
                          boolean vanished, FileStat replacement, RuntimeException crash, boolean first,
                          boolean last) {
        static final Listed END = new Listed(null, null, null, null, false, null, null, true, true);

        static Listed part(Path path, List<WalkedEntry> entries, List<ScanError> problems, boolean first,
                           boolean last) {
            return new Listed(path, entries, problems, null, false, null, null, first, last);
        }

        static Listed failed(Path path, IOException failure, boolean vanished, FileStat replacement, boolean first) {
            return new Listed(path, null, null, failure, vanished, replacement, null, first, true);
        }
    }

    /** The walk whose walker thread is the current thread, so a walker pausing there can let it catch up. */
    private static final ThreadLocal<Walk> WALKER_THREAD_OF = new ThreadLocal<>();

    /**
     * Called on a walker thread ({@link ListingPause}): waits until the scan thread has taken, and applied or dropped,
     * every listing read before. Returns at once on any other thread.
     */
    static void awaitEarlierListingsApplied() throws InterruptedIOException {
        Walk walk = WALKER_THREAD_OF.get();
        if (walk != null) {
            walk.awaitScanThreadIdle();
        }
    }

    private FileStat statOrNull(Path path) {
        try {
            return walker.stat(path);
        } catch (IOException e) {
            return null;
        }
    }

    private FileStat replacement(Path path) {
        try {
            FileStat now = walker.stat(path);
            return now.isDirectory() ? null : now;
        } catch (IOException gone) {
            return null;
        }
    }
}
