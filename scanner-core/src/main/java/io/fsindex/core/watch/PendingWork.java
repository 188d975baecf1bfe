package io.fsindex.core.watch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scans a watch owes, per directory, coalesced over the settle window: a directory is due once it has had no
 * new event for the window (or has waited {@link #MAX_WINDOWS} windows while events kept coming). A subtree request
 * covers the requests below it, and a burst (eight or more due requests directly below one directory whose subtree
 * holds at most four times as many directories) becomes one scan of that directory's subtree, which then costs at
 * most a few times what the separate scans would. Thread-safe; the scan thread waits here for work.
 */
final class PendingWork {
    /** One scan to run: of a directory's own listing, or of its whole subtree. */
    record Work(Path path, boolean subtree, boolean created) {
    }

    /**
     * A directory that keeps changing is scanned after this many settle windows at the latest, so that a steady
     * stream of events cannot put its scan off for good.
     */
    static final int MAX_WINDOWS = 2;
    /** Due requests directly below one directory that make it one subtree scan instead. */
    static final int BURST = 8;

    private static final class Request {
        long first;
        long last;
        boolean subtree;
        boolean created;
    }

    private final Path root;
    private final long settleNanos;
    private final java.util.function.ToLongFunction<Path> directoriesUnder;
    private final Map<Path, Request> requests = new HashMap<>();
    private boolean stopped;
    /** Counts {@link #wake} calls, so a wake between looking at the state and waiting is not missed. */
    private long wakes;

    PendingWork(Path root, long settleNanos, java.util.function.ToLongFunction<Path> directoriesUnder) {
        this.root = root;
        this.settleNanos = settleNanos;
        this.directoriesUnder = directoriesUnder;
    }

    /** Something changed in {@code dir}'s own listing ({@code created}: an entry appeared there). */
    synchronized void directory(Path dir, boolean created, long now) {
        Request r = requests.computeIfAbsent(dir, d -> newRequest(now));
        r.last = now;
        r.created |= created;
        notifyAll();
    }

    /**
     * Directory {@code dir} appeared in the tree and was registered just now: what was made in it before that gave no
     * event, and another scan may have recorded it as a directory meanwhile (so its parent's scan would not descend
     * into it), so its subtree is scanned too, due with its parent's scan and ordered after it, so that a directory
     * moved here is found moved by its parent's scan first.
     */
    synchronized void createdDirectory(Path dir, long now) {
        Request r = requests.computeIfAbsent(dir, d -> newRequest(now));
        r.last = now;
        r.subtree = true;
        notifyAll();
    }

    /**
     * Anything below {@code dir} may have changed unseen: its subtree is scanned, after {@code delayNanos} (0 for
     * as soon as the scan thread is free).
     */
    synchronized void subtree(Path dir, long now, long delayNanos) {
        Request r = requests.computeIfAbsent(dir, d -> newRequest(now));
        r.subtree = true;
        // Due at once: backdated past the settle window.
        r.first = Math.min(r.first, now + delayNanos - MAX_WINDOWS * settleNanos);
        r.last = Math.min(r.last, now + delayNanos - settleNanos);
        notifyAll();
    }

    private static Request newRequest(long now) {
        Request r = new Request();
        r.first = now;
        r.last = now;
        return r;
    }

    private boolean isDue(Request r, long now) {
        return now - r.last >= settleNanos || now - r.first >= MAX_WINDOWS * settleNanos;
    }

    /**
     * Takes the requests that are due, coalesced: directories with new entries first (so that a move between two
     * directories is found from its new place, keeping its ids, before its old place is scanned), each directory
     * before those below it, subtrees in place of what they cover.
     */
    synchronized List<Work> takeDue(long now) {
        Map<Path, Request> due = new HashMap<>();
        requests.forEach((path, r) -> {
            if (isDue(r, now)) {
                due.put(path, r);
            }
        });
        if (due.isEmpty()) {
            return List.of();
        }
        due.keySet().forEach(requests::remove);
        boolean merged = true;
        while (merged) {
            merged = false;
            Map<Path, Integer> below = new HashMap<>();
            for (Path p : due.keySet()) {
                if (!p.equals(root) && p.getParent() != null && p.startsWith(root)) {
                    below.merge(p.getParent(), 1, Integer::sum);
                }
            }
            for (Map.Entry<Path, Integer> e : below.entrySet()) {
                Request already = due.get(e.getKey());
                if (e.getValue() >= BURST && (already == null || !already.subtree)
                        && directoriesUnder.applyAsLong(e.getKey()) <= 4L * e.getValue()) {
                    Request r = due.computeIfAbsent(e.getKey(), d -> newRequest(now));
                    r.subtree = true;
                    merged = true;
                }
            }
            List<Path> covered = new ArrayList<>();
            for (Path p : due.keySet()) {
                for (Path up = p.getParent(); up != null && up.startsWith(root); up = up.getParent()) {
                    Request r = due.get(up);
                    if (r != null && r.subtree) {
                        covered.add(p);
                        r.created |= due.get(p).created;
                        break;
                    }
                }
            }
            covered.forEach(due::remove);
        }
        List<Work> out = new ArrayList<>();
        due.forEach((path, r) -> out.add(new Work(path, r.subtree, r.created)));
        out.sort(Comparator.comparing((Work w) -> !w.created()).thenComparing(Work::path));
        return out;
    }

    /** How many directories have changes not yet taken. */
    synchronized int size() {
        return requests.size();
    }

    /** Drops every request (the root is gone: nothing below it can be scanned). */
    synchronized void clear() {
        requests.clear();
    }

    /**
     * Waits until some request may be due, {@code deadline} passes, {@link #stop} is called, or {@link #wake} is
     * called (or was, since {@link #wakes()} returned {@code seenWakes}).
     */
    synchronized void await(long now, long deadline, long seenWakes) throws InterruptedException {
        if (wakes != seenWakes) {
            return;
        }
        long until = deadline;
        for (Request r : requests.values()) {
            until = Math.min(until, Math.min(r.last + settleNanos, r.first + MAX_WINDOWS * settleNanos));
        }
        long waitMillis = (until - now + 999_999) / 1_000_000;
        if (!stopped && waitMillis > 0) {
            wait(waitMillis);
        }
    }

    /** Wakes the scan thread to look at the watch's state (a scan ended, the root went missing). */
    synchronized void wake() {
        wakes++;
        notifyAll();
    }

    /** How many times {@link #wake} was called so far; pass it to {@link #await} after looking at the state. */
    synchronized long wakes() {
        return wakes;
    }

    synchronized void stop() {
        stopped = true;
        notifyAll();
    }
}
