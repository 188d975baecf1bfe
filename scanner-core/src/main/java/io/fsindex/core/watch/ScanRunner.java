package io.fsindex.core.watch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the scans a watch owes, up to a bound at once, on threads of its own: never two of which one's directory is at
 * or below the other's (each still claims, diffs and sweeps under the scan protocol; keeping related directories
 * apart keeps a directory scan from racing the subtree scan that covers it), and a directory that gained entries
 * before the directories taken in the same or an earlier round that did not, so that a move between two
 * directories is found from its new place while its old row is still there. Thread-safe.
 */
final class ScanRunner {
    /** A work item and the round of {@link #add} it came with. */
    private record Queued(PendingWork.Work work, long round) {
    }

    private final int bound;
    private final Consumer<PendingWork.Work> scan;
    private final Runnable ended;
    private final ExecutorService pool;
    private final List<Queued> queued = new ArrayList<>();
    private final List<Queued> running = new ArrayList<>();
    private long rounds;

    /**
     * @param bound how many scans may run at once
     * @param scan  runs one scan (and handles its failure)
     * @param ended called after each scan, from its thread
     */
    ScanRunner(int bound, Consumer<PendingWork.Work> scan, Runnable ended) {
        this.bound = bound;
        this.scan = scan;
        this.ended = ended;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(bound, r -> {
            Thread t = new Thread(r, "fsindex-watch-scan-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Queues one round of due work (in the order {@link PendingWork#takeDue} gives); a path queued already merges. */
    synchronized void add(List<PendingWork.Work> due) {
        if (due.isEmpty()) {
            return;
        }
        long round = ++rounds;
        for (PendingWork.Work w : due) {
            boolean merged = false;
            for (ListIterator<Queued> it = queued.listIterator(); it.hasNext() && !merged; ) {
                Queued q = it.next();
                if (q.work().path().equals(w.path())) {
                    it.set(new Queued(new PendingWork.Work(w.path(), w.subtree() || q.work().subtree(),
                            w.created() || q.work().created()), q.round()));
                    merged = true;
                }
            }
            if (!merged) {
                queued.add(new Queued(w, round));
            }
        }
    }

    /** Starts what may start now: within the bound, independent of what runs, created directories first. */
    synchronized void dispatch() {
        for (Iterator<Queued> it = queued.iterator(); it.hasNext() && running.size() < bound; ) {
            Queued q = it.next();
            if (!independent(q.work().path()) || !q.work().created() && createdWaiting(q.round())) {
                continue;
            }
            it.remove();
            running.add(q);
            pool.execute(() -> run(q));
        }
    }

    private void run(Queued q) {
        try {
            scan.accept(q.work());
        } finally {
            synchronized (this) {
                running.remove(q);
            }
            ended.run();
        }
    }

    /** Neither at nor above nor below a running scan's directory. */
    private boolean independent(Path p) {
        for (Queued r : running) {
            Path other = r.work().path();
            if (p.startsWith(other) || other.startsWith(p)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a directory that gained entries, taken in {@code round} or before, is queued or running. */
    private boolean createdWaiting(long round) {
        for (List<Queued> list : List.of(running, queued)) {
            for (Queued q : list) {
                if (q.work().created() && q.round() <= round) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Queued and running scans. */
    synchronized int size() {
        return queued.size() + running.size();
    }

    /** Drops the queued work (the root is gone); running scans end by themselves. */
    synchronized void clearQueued() {
        queued.clear();
    }

    /** Cancels the running scans (their threads are interrupted, which cancels a scan) and waits for them. */
    void shutdown() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(1, TimeUnit.MINUTES);
    }
}
