package io.fsindex.core.scan;

import io.fsindex.core.content.ContentIndexer;
import io.fsindex.core.content.ContentStore;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileSink;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanResult;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;

/** Walks one scan's tree top-down, feeding each listing to a {@link FileSink}, and reports what it did. */
public final class Scan {
    private final long scanId;
    private final Path requested;
    private final Walker walker;
    private final ScanOptions options;
    private final ScanListener listener;
    private final AtomicReference<ScanProgress> progress = new AtomicReference<>(
            new ScanProgress(0, 0, 0, 0, 0, 0, null));
    private volatile boolean cancelled;
    /** Hashes files' content after their directory's listing is applied; null when the scan reads no content. */
    private ContentIndexer content;

    private final List<ScanError> errors = new ArrayList<>();
    private long directories, added, modified, moved, unchanged, skipped;
    /** The identities of the scan root and every directory above it, the first links a loop can lead back to. */
    private Ancestors rootAndTrunk;

    private record Ancestors(Object fileKey, Ancestors parent) {
        boolean contains(Object key) {
            for (Ancestors a = this; a != null; a = a.parent) {
                if (key != null && key.equals(a.fileKey)) {
                    return true;
                }
            }
            return false;
        }
    }

    public Scan(long scanId, Path requested, Walker walker, ScanOptions options) {
        this.scanId = scanId;
        this.requested = requested;
        this.walker = walker;
        this.options = options;
        this.listener = options.listener();
    }

    /** Hashes content as the options ask, storing it through {@code store}; call before {@link #run}. */
    public void hashContent(ContentStore store) {
        if (options.contentHashing() != io.fsindex.api.ContentHashing.OFF) {
            content = new ContentIndexer(store, options.contentHashing(), path -> options.followSymlinks()
                    ? walker.statFollowingLinks(path) : walker.stat(path), this::report);
        }
    }

    /**
     * Called once a directory's listing is committed: hashes its files outside any write transaction, counts what
     * the listing did and reports the progress.
     */
    private void listingApplied(Directory dir, FileSink.Applied a) {
        if (content != null) {
            checkNotCancelled();
            content.directoryApplied(dir.id(), dir.path());
        }
        directories++;
        added += a.added();
        modified += a.modified();
        moved += a.moved();
        unchanged += a.unchanged();
        skipped += a.skipped();
        ScanProgress now = new ScanProgress(directories, added + modified + moved + unchanged, added, modified,
                skipped, errors.size(), dir.path());
        progress.set(now);
        listener.progress(now);
    }

    /** How many entries of a huge directory this scan lists and applies at a time ({@link #PART_ENTRIES}). */
    public int partEntries() {
        return partEntries;
    }

    public long scanId() {
        return scanId;
    }

    public ScanOptions options() {
        return options;
    }

    public Walker walker() {
        return walker;
    }

    public ScanListener listener() {
        return listener;
    }

    ScanProgress progress() {
        return progress.get();
    }

    void cancel() {
        cancelled = true;
    }

    public long errorCount() {
        return errors.size();
    }

    /**
     * Runs the scan to the end. On any failure or cancellation the sink is finished without sweeping, so nothing is
     * deleted by a scan that did not see everything.
     */
    public ScanResult run(FileSink sink) {
        try {
            return walkAndSweep(sink);
        } catch (RuntimeException | Error e) {
            try {
                sink.finish(false);
            } catch (RuntimeException cleanup) {
                // The failure that stopped the scan is what the caller must see; the cleanup's comes along.
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private ScanResult walkAndSweep(FileSink sink) {
        long start = System.nanoTime();
        Path abs = requested.toAbsolutePath().normalize();
        Path root;
        try {
            root = abs.toRealPath();
        } catch (NoSuchFileException e) {
            if (!options.removeMissingRoot()) {
                throw new ScanFailedException("scan root does not exist: " + abs + "; nothing was deleted", e);
            }
            return removeMissingRoot(sink, abs, start);
        } catch (IOException e) {
            throw new ScanFailedException("scan root cannot be read: " + abs + " (" + e + "); nothing was deleted",
                    e);
        }
        listener.started(scanId, root);
        FileSink.Applied top = begin(sink, root);
        if (!top.subdirectories().isEmpty()) {
            new Walk(sink, top.subdirectories().get(0)).run();
        }
        long deleted = sink.finish(true);
        ScanResult result = new ScanResult(scanId, root, added, modified, moved, unchanged, deleted, skipped, errors,
                Duration.ofNanos(System.nanoTime() - start));
        listener.finished(result);
        return result;
    }

    private FileSink.Applied begin(FileSink sink, Path root) {
        List<WalkedEntry> trunk = new ArrayList<>();
        FileStat rootStat;
        try {
            Path prefix = root.getRoot();
            if (prefix != null && !prefix.equals(root)) {
                trunk.add(new WalkedEntry(prefix.toString(), walker.stat(prefix)));
                for (int i = 0; i < root.getNameCount() - 1; i++) {
                    prefix = prefix.resolve(root.getName(i).toString());
                    trunk.add(new WalkedEntry(root.getName(i).toString(), walker.stat(prefix)));
                }
            }
            rootStat = walker.stat(root);
        } catch (IOException e) {
            throw new ScanFailedException("scan root cannot be read: " + root + " (" + e + "); nothing was deleted", e);
        }
        // A followed link back to any directory above the root would list the root again, so those count as
        // ancestors too, not only the directories inside the scan.
        Ancestors chain = null;
        for (WalkedEntry e : trunk) {
            chain = new Ancestors(e.stat().fileKey(), chain);
        }
        rootAndTrunk = new Ancestors(rootStat.fileKey(), chain);
        FileSink.Applied top = sink.begin(trunk, new WalkedEntry(nameOf(root), rootStat), root);
        added += top.added();
        modified += top.modified();
        moved += top.moved();
        unchanged += top.unchanged();
        skipped += top.skipped();
        return top;
    }

    /**
     * A group of listings is applied in one transaction once it holds this many directories... Each transaction and
     * each statement has a cost of its own on the server (PostgreSQL sets up a bulk load's tuple slots and plans the
     * insert trigger's queries once per statement), so small directories are applied a few hundred at a time; a
     * group's memory is a few MiB at most.
     */
    public static final int GROUP_DIRECTORIES = 256;
    /** ...or this many entries, whichever comes first (a larger directory makes a group of its own). */
    static final int GROUP_ENTRIES = 16_384;

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

    /**
     * Directories with more entries than this are listed, and applied, in parts of this many, each in its own
     * transaction: a scan's memory then does not grow with the size of the largest directory. Larger parts cost more
     * memory (about 150 bytes an entry, a few parts at a time) and fewer transactions: each part's rows land all over
     * the directory's index, so each part rewrites about as many index pages as it has rows. The system property
     * {@code fsindex.listingPartEntries} overrides it (read when a scan starts), so that tests can make parts small.
     */
    public static final int PART_ENTRIES = 32_768;

    private final int partEntries = Math.max(1, Integer.getInteger("fsindex.listingPartEntries", PART_ENTRIES));

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
    private final class Walk {
        private static final int QUEUE_LISTINGS = 256;
        /** How many entries the queued listings may hold together: a few parts of a huge directory, not all. */
        private final int queueEntries = 2 * partEntries;
        private final java.util.concurrent.Semaphore room = new java.util.concurrent.Semaphore(queueEntries);
        private final FileSink sink;
        private final Directory top;
        private final java.util.concurrent.BlockingQueue<Listed> queue =
                new java.util.concurrent.ArrayBlockingQueue<>(QUEUE_LISTINGS);
        private volatile boolean stop;
        /** True while the scan thread waits for a listing with nothing left to apply; guarded by this. */
        private boolean scanThreadIdle;
        /** Directories claimed in applied groups whose listings have not been taken from the queue yet. */
        private final java.util.Map<Path, Directory> claimed = new java.util.HashMap<>();

        Walk(FileSink sink, Directory top) {
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
                listingApplied(partsOf, parts.applied());
                failed(partsOf, l);
                return;
            }
            l.problems().forEach(Scan.this::report);
            checkNotCancelled();
            FileSink.Applied a = parts.applyPart(l.entries(), l.last());
            for (Directory sub : a.subdirectories()) {
                claimed.put(sub.path(), sub);
            }
            if (l.last()) {
                listingApplied(partsOf, parts.applied());
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
                checkNotCancelled();
                Listed l = paths.isEmpty() ? take() : queue.poll();
                if (l != null) {
                    room.release(weight(l));
                }
                if (l == null || l == Listed.END || paths.size() >= GROUP_DIRECTORIES || entries >= GROUP_ENTRIES) {
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
                l.problems().forEach(Scan.this::report);
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

        private void failed(Directory dir, Listed l) {
            if (dir == top) {
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
                report(new ScanError(dir.path(), l.failure() instanceof AccessDeniedException
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
            checkNotCancelled();
            List<FileSink.Applied> results = sink.applyListings(paths, dirs, listings);
            // A directory claimed earlier in the group is known from its parent's result, which comes first.
            java.util.Map<Path, Directory> claimedInGroup = new java.util.HashMap<>();
            for (int g = 0; g < results.size(); g++) {
                FileSink.Applied a = results.get(g);
                Directory dir = dirs.get(g) != null ? dirs.get(g) : claimedInGroup.remove(paths.get(g));
                if (a == null || dir == null) {
                    continue;                    // its parent, earlier in the group, did not claim it
                }
                listingApplied(dir, a);
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
                            ? followLinks(path, part.entries(), ancestors, problems::add) : part.entries();
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
    }

    private void checkNotCancelled() {
        if (cancelled || Thread.currentThread().isInterrupted()) {
            throw new CancellationException("scan " + scanId + " was cancelled; nothing was deleted");
        }
    }

    /**
     * Replaces each link with what it points to, unless that would loop back to an ancestor. A dangling link is
     * recorded as the link; one that cannot be followed for another reason is reported and its row kept as it was.
     */
    private List<WalkedEntry> followLinks(Path dir, List<WalkedEntry> entries, Ancestors ancestors,
                                          java.util.function.Consumer<ScanError> report) {
        List<WalkedEntry> out = new ArrayList<>(entries.size());
        for (WalkedEntry e : entries) {
            if (!e.isReadable() || e.stat().kind() != FileKind.SYMLINK) {
                out.add(e);
                continue;
            }
            Path link = dir.resolve(e.name());
            try {
                FileStat target = walker.statFollowingLinks(link);
                if (target.isDirectory() && ancestors.contains(target.fileKey())) {
                    report.accept(new ScanError(link, ScanError.Reason.SYMLINK_LOOP,
                            "link to " + e.stat().linkTarget() + " leads back to one of its own ancestors;"
                                    + " recorded as a link, not followed"));
                    out.add(e);
                } else {
                    out.add(new WalkedEntry(e.name(), new FileStat(target.kind(), target.size(), target.mtimeNanos(),
                            e.stat().linkTarget(), target.fileKey())));
                }
            } catch (NoSuchFileException dangling) {
                out.add(e);
            } catch (AccessDeniedException denied) {
                report.accept(new ScanError(link, ScanError.Reason.ACCESS_DENIED, "cannot follow link to "
                        + e.stat().linkTarget() + ": permission denied; its row was kept as it was"));
                out.add(new WalkedEntry(e.name(), null));
            } catch (FileSystemException failed) {
                if (isLinkLoop(failed)) {
                    report.accept(new ScanError(link, ScanError.Reason.SYMLINK_LOOP, "link to " + e.stat().linkTarget()
                            + " never reaches a file (" + failed.getReason() + "); recorded as a link"));
                    out.add(e);
                } else {
                    report.accept(new ScanError(link, ScanError.Reason.IO_ERROR, "cannot follow link to "
                            + e.stat().linkTarget() + " (" + failed + "); its row was kept as it was"));
                    out.add(new WalkedEntry(e.name(), null));
                }
            } catch (IOException failed) {
                report.accept(new ScanError(link, ScanError.Reason.IO_ERROR, "cannot follow link to "
                        + e.stat().linkTarget() + " (" + failed + "); its row was kept as it was"));
                out.add(new WalkedEntry(e.name(), null));
            }
        }
        return out;
    }

    /**
     * True if resolving failed with ELOOP (a chain of links that never ends, such as {@code a -> b -> a}). NIO has no
     * errno, but its ELOOP message always ends with this English phrase of its own, whatever the locale.
     */
    private static boolean isLinkLoop(FileSystemException e) {
        String reason = String.valueOf(e.getReason());
        return reason.contains("unable to access attributes of symbolic link")
                || reason.contains("Too many levels of symbolic links");
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

    private ScanResult removeMissingRoot(FileSink sink, Path abs, long start) {
        Path parent = abs.getParent();
        List<WalkedEntry> trunk = new ArrayList<>();
        if (parent != null) {
            Path realParent = RealPaths.resolve(parent);    // as lookups resolve it, so they agree on the row
            trunk.add(new WalkedEntry(realParent.getRoot().toString(), null));
            for (Path name : realParent) {
                trunk.add(new WalkedEntry(name.toString(), null));
            }
        }
        listener.started(scanId, abs);
        sink.removeRoot(trunk, nameOf(abs));
        long deleted = sink.finish(true);
        ScanResult result = new ScanResult(scanId, abs, 0, 0, 0, 0, deleted, 0, errors,
                Duration.ofNanos(System.nanoTime() - start));
        listener.finished(result);
        return result;
    }

    private void report(ScanError error) {
        errors.add(error);
        listener.error(error);
    }

    private static String nameOf(Path path) {
        Path name = path.getFileName();
        return name == null ? Objects.requireNonNull(path.getRoot()).toString() : name.toString();
    }
}
