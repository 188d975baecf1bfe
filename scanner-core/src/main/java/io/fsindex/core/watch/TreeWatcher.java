package io.fsindex.core.watch;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.ScopeException;
import io.fsindex.api.WatchOptions;
import io.fsindex.api.WatchState;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the index of one tree current ({@link FsIndex#watch}): an event thread turns the filesystem's change
 * notifications into {@link PendingWork}, and a scan thread takes the work that is due, hands it to a
 * {@link ScanRunner} (which runs independent directories' scans in parallel) and delivers the watch's own
 * {@link WatchReports}. Whatever notifications cannot cover (lost events, directories that cannot be watched, a missing
 * root) is reported and answered with scans; see the README, "Watching a tree".
 */
public final class TreeWatcher implements IndexWatch {
    private static final Logger LOG = LoggerFactory.getLogger(TreeWatcher.class);
    /** How often a missing root is looked for. */
    private static final long ROOT_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long a scan that failed for another reason than its directory being gone waits to be tried again. */
    private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(5);
    /**
     * Filesystem types whose changes made elsewhere (another machine, the server) give no notification here, so
     * their trees are also scanned periodically.
     */
    private static final Set<String> REMOTE_TYPES = Set.of("nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs",
            "fuse.sshfs", "sshfs", "9p", "afs", "ceph", "fuse.ceph", "glusterfs", "fuse.glusterfs", "lustre",
            "fuse.rclone", "davfs", "fuse.s3fs");

    private final FsIndex index;
    private final Path root;
    private final WatchOptions options;
    private final ScanOptions scanOptions;
    private final WatchReports reports;
    private final DirectoryRegistry registry;
    private final PendingWork pending;
    private final ScanRunner runner;
    private final Registration registration;
    private final WatchEnvironment environment;
    private final AtomicLong scans = new AtomicLong();
    private volatile Instant lastFullRescan;
    private volatile boolean rootMissing;
    private volatile boolean closed;
    /** The root is on a filesystem that misses remote changes: it is rescanned periodically as a whole. */
    private boolean remote;
    /** The root's parent's registration, which tells when the root itself is removed or comes back. */
    private WatchKey rootParentKey;
    /** The index's own files: a scan's commit changes them, and must not call for another scan. */
    private final Set<Path> ownFiles;
    private Thread eventThread;
    private Thread scanThread;

    private TreeWatcher(FsIndex index, Path root, WatchOptions options, DirectoryRegistry registry,
                        Set<Path> ownFiles, WatchEnvironment environment) {
        this.ownFiles = ownFiles;
        this.index = index;
        this.root = root;
        this.options = options;
        this.environment = environment;
        this.reports = new WatchReports(options.scanOptions().listener());
        this.scanOptions = options.scanOptions().withRemoveMissingRoot(false).withListener(reports.listener());
        this.registry = registry;
        this.pending = new PendingWork(root, options.settle().toNanos(), registry::directoriesUnder);
        this.registration = new Registration(root, registry, new WatchedScope(index, root), pending, reports,
                options.unwatchedRescanEvery());
        this.runner = new ScanRunner(options.parallelScans(), w -> runScan(w, false), pending::wake);
    }

    /**
     * Starts watching {@code root}; {@link FsIndex#watch} calls this.
     *
     * @param index    the index to keep current
     * @param root     the directory to watch
     * @param options  how to watch
     * @param ownFiles the index's own files (an SQLite database's), whose events are ignored
     * @return the running watch
     */
    public static IndexWatch start(FsIndex index, Path root, WatchOptions options, Collection<Path> ownFiles) {
        return start(index, root, options, WatchEnvironment.SYSTEM, ownFiles);
    }

    /** Starts watching in {@code environment} (a test lowers the watch limit or names another filesystem type). */
    static TreeWatcher start(FsIndex index, Path root, WatchOptions options, WatchEnvironment environment,
                             Collection<Path> ownFiles) {
        Path real;
        try {
            real = root.toAbsolutePath().normalize().toRealPath();
        } catch (NoSuchFileException e) {
            throw new ScanFailedException("cannot watch " + root + ": it does not exist", e);
        } catch (IOException e) {
            throw new ScanFailedException("cannot watch " + root + ": " + e, e);
        }
        if (!Files.isDirectory(real)) {
            throw new ScanFailedException("cannot watch " + real + ": not a directory", null);
        }
        DirectoryRegistry registry;
        try {
            registry = new DirectoryRegistry(real.getFileSystem(), environment.maxWatches());
        } catch (IOException e) {
            throw new ScanFailedException("cannot watch " + real + ": no watch service (" + e.getMessage()
                    + "); on Linux raise fs.inotify.max_user_instances, or scan periodically instead", e);
        }
        TreeWatcher w;
        try {
            w = new TreeWatcher(index, real, options, registry, Set.copyOf(ownFiles), environment);
        } catch (RuntimeException | Error e) {
            registry.close();
            throw e;
        }
        try {
            w.begin();
        } catch (RuntimeException | Error e) {
            w.close();
            throw e;
        }
        return w;
    }

    /** Registers the tree, scans it unless a recent complete scan makes that unneeded, and starts the threads. */
    private void begin() {
        // Registered before the initial scan, so nothing that changes after the scan lists a directory goes unseen.
        registration.registerTree(root);
        if (root.getParent() != null) {
            try {
                rootParentKey = registry.register(root.getParent());
            } catch (IOException e) {
                // Without it the root's disappearance is found by its own registration ending, and by the scans.
                LOG.debug("cannot watch the parent of {}: {}", root, e.toString());
            }
        }
        try {
            String type = environment.fileStoreType().of(root);
            if (REMOTE_TYPES.contains(type)) {
                remote = true;
                reports.fallback(root, ScanError.Reason.NOT_WATCHED, "the watched tree is on a " + type
                        + " filesystem, which gives no notification of changes made by other machines; it is scanned"
                        + " whole every " + options.unwatchedRescanEvery()
                        + " (WatchOptions.withUnwatchedRescanEvery)");
            }
        } catch (IOException e) {
            LOG.debug("cannot read the filesystem type of {}: {}", root, e.toString());
        }
        if (!recentlyScanned()) {
            runScan(new PendingWork.Work(root, true, false), true);
        }
        reports.deliver();
        eventThread = new Thread(this::events, "fsindex-watch-events");
        scanThread = new Thread(this::scanLoop, "fsindex-watch-scans");
        eventThread.setDaemon(true);
        scanThread.setDaemon(true);
        eventThread.start();
        scanThread.start();
        LOG.info("watching {} ({} directories)", root, registry.size());
    }

    /** Whether a complete scan of the root finished within {@code skipInitialScanWithin}. */
    private boolean recentlyScanned() {
        if (options.skipInitialScanWithin().isZero()) {
            return false;
        }
        Instant since = Instant.now().minus(options.skipInitialScanWithin());
        for (ScanRecord r : index.info(200).recentScans()) {
            if (root.toString().equals(r.root()) && "COMPLETED".equals(r.state()) && r.message() == null
                    && r.finishedAt() != null && r.finishedAt().isAfter(since)) {
                lastFullRescan = r.finishedAt();
                return true;
            }
        }
        return false;
    }

    // ---- the event thread ----

    private void events() {
        try {
            while (!closed) {
                WatchKey key = registry.poll(1000);
                if (key != null) {
                    handle(key);
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // Closed.
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("the watch of {} stopped following events", root, e);
                reports.problem(root, ScanError.Reason.NOT_WATCHED, "the watch stopped following events ("
                        + e + "); the index is no longer kept current, watch again");
            }
        }
    }

    private void handle(WatchKey key) {
        Path dir = registry.pathOf(key);
        List<WatchEvent<?>> events = key.pollEvents();
        if (key == rootParentKey) {
            for (WatchEvent<?> e : events) {
                if (e.kind() == StandardWatchEventKinds.OVERFLOW || root.getFileName().equals(e.context())) {
                    rootNameChanged();
                }
            }
            key.reset();
            return;
        }
        if (dir == null || rootMissing) {
            key.cancel();
            return;
        }
        long now = System.nanoTime();
        for (WatchEvent<?> e : events) {
            if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                overflowed(dir);
                continue;
            }
            Path child = dir.resolve((Path) e.context());
            if (ownFiles.contains(child)) {
                continue;
            }
            boolean created = e.kind() == StandardWatchEventKinds.ENTRY_CREATE;
            pending.directory(dir, created, now);
            if (created && Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) && !registration.leavesOut(child)) {
                // At once, so what is created in it from now on is seen; the scan of dir lists it, and then (what
                // was made in it before it was registered gave no event) a scan of its subtree.
                environment.beforeRegistering().accept(child);
                registration.registerTree(child);
                pending.createdDirectory(child, now);
            } else if (e.kind() == StandardWatchEventKinds.ENTRY_DELETE) {
                registry.forgetTree(child);
            }
        }
        if (!key.reset()) {
            registry.forget(key);
            if (dir.equals(root)) {
                checkRoot();
            }
        }
    }

    /** Events for {@code dir} were lost (the kernel's queue or the JDK's per-directory list overflowed). */
    void overflowed(Path dir) {
        reports.fallback(dir, ScanError.Reason.EVENTS_LOST, "change notifications were lost for " + dir + " (the"
                + " event queue overflowed); its subtree is scanned again. If this recurs, raise"
                + " fs.inotify.max_queued_events (sysctl), or spread the changes out");
        pending.subtree(dir, System.nanoTime(), 0);
    }

    /**
     * The root's name changed in its parent: it is gone, or (if a directory is there) another directory or the same
     * one back may be there now, so the tree is registered anew and scanned whole.
     */
    private synchronized void rootNameChanged() {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            checkRoot();
        } else if (!rootMissing) {
            registry.forgetAllBut(rootParentKey);
            registration.registerTree(root);
            pending.subtree(root, System.nanoTime(), 0);
        }
    }

    /** Looks at the root: if it is gone, stops watching below it until it is back; nothing is deleted. */
    private synchronized void checkRoot() {
        if (rootMissing || Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        rootMissing = true;
        registry.forgetAllBut(rootParentKey);
        pending.clear();
        runner.clearQueued();
        reports.fallback(root, ScanError.Reason.NOT_WATCHED, "the watched root " + root + " is gone (deleted, moved"
                + " away or unmounted); nothing was deleted from the index, and the watch resumes with a scan when it"
                + " is back");
        pending.wake();                 // the scan thread reports it and looks for the root every second
    }

    // ---- the scan thread ----

    private void scanLoop() {
        long nextSafety = options.rescanEvery().isZero() ? Long.MAX_VALUE
                : System.nanoTime() + options.rescanEvery().toNanos();
        long nextUnwatched = System.nanoTime() + options.unwatchedRescanEvery().toNanos();
        try {
            while (!closed) {
                long wakes = pending.wakes();
                reports.deliver();
                long now = System.nanoTime();
                if (rootMissing) {
                    if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
                        rootBack();
                    } else {
                        pending.clear();
                        runner.clearQueued();
                        pending.await(now, now + ROOT_CHECK_NANOS, wakes);
                        continue;
                    }
                }
                if (now >= nextSafety) {
                    pending.subtree(root, now, 0);
                    nextSafety = now + options.rescanEvery().toNanos();
                }
                if (now >= nextUnwatched) {
                    if (remote) {
                        pending.subtree(root, now, 0);
                    }
                    registration.retryUnwatched(now);
                    nextUnwatched = now + options.unwatchedRescanEvery().toNanos();
                }
                List<PendingWork.Work> due = pending.takeDue(now);
                if (!due.isEmpty()) {
                    runner.add(due);
                    // Started before the rules are read again: that read is a query, which must not delay them
                    // (each scan applies the stored rules itself; the registration follows them here).
                    runner.dispatch();
                    registration.followRuleChanges();
                    runner.add(pending.takeDue(System.nanoTime()));      // what a change of the rules asked for
                }
                runner.dispatch();
                pending.await(now, Math.min(nextSafety, nextUnwatched), wakes);
            }
        } catch (InterruptedException | CancellationException e) {
            // Closed.
        }
    }

    private void rootBack() {
        rootMissing = false;
        LOG.info("the watched root {} is back; scanning it", root);
        registration.registerTree(root);
        pending.subtree(root, System.nanoTime(), 0);
    }

    /**
     * Runs one scan, on the caller's thread for the initial one, else on a {@link ScanRunner} thread; a directory gone
     * meanwhile passes the work to its parent, the root's absence to checkRoot.
     */
    private void runScan(PendingWork.Work w, boolean initial) {
        try {
            if (w.subtree()) {
                index.scan(w.path(), scanOptions);
                if (w.path().equals(root)) {
                    lastFullRescan = Instant.now();
                }
            } else {
                index.scanDirectory(w.path(), scanOptions);
            }
            scans.incrementAndGet();
        } catch (ScanFailedException e) {
            if (initial) {
                throw e;
            }
            if (!Files.exists(w.path(), LinkOption.NOFOLLOW_LINKS)) {
                if (w.path().equals(root)) {
                    checkRoot();
                } else {
                    // Gone: its parent's listing says so (and sweeps it); a miss up to the root ends at checkRoot.
                    pending.directory(w.path().getParent(), false, System.nanoTime());
                }
                return;
            }
            retryLater(w, e);
        } catch (CancellationException e) {
            if (!closed) {
                retryLater(w, e);
            }
        } catch (ScopeException e) {
            if (initial) {
                throw e;
            }
            // The stored rules leave this directory out (or now do): its parent's scans keep it out of the index, so
            // its events ask for nothing, and retrying would only fail again.
            LOG.debug("not scanning {} for the watch: {}", w.path(), e.getMessage());
        } catch (RuntimeException e) {
            if (initial) {
                throw e;
            }
            retryLater(w, e);
        }
    }

    private void retryLater(PendingWork.Work w, Exception e) {
        reports.problem(w.path(), ScanError.Reason.IO_ERROR, "scanning " + w.path() + " for the watch failed ("
                + e.getMessage() + "); its subtree is scanned again in " + TimeUnit.NANOSECONDS.toSeconds(RETRY_NANOS)
                + " s");
        pending.subtree(w.path(), System.nanoTime(), RETRY_NANOS);
    }

    // ---- the handle ----

    @Override
    public Path root() {
        return root;
    }

    @Override
    public WatchState state() {
        return new WatchState(rootMissing ? 0 : registry.size() - (rootParentKey == null ? 0 : 1),
                registration.unwatchedSubtrees(),
                pending.size() + runner.size(), scans.get(), reports.fallbacks(), lastFullRescan, rootMissing);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pending.stop();
        registry.close();
        for (Thread t : new Thread[] {eventThread, scanThread}) {
            if (t != null) {
                t.interrupt();
            }
        }
        try {
            for (Thread t : new Thread[] {eventThread, scanThread}) {
                if (t != null && t != Thread.currentThread()) {
                    t.join();
                }
            }
            runner.shutdown();          // after the scan thread, which starts scans, has ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.info("stopped watching {}", root);
    }
}
