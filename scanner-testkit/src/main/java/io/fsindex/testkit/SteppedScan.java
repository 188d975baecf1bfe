package io.fsindex.testkit;

import io.fsindex.api.ScanSession;
import io.fsindex.api.WalkedEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;

/** One scan of a try, with where it is stopped. */
final class SteppedScan {
    final int number;
    final Path root;
    final String shown;
    final boolean full;
    final SteppingWalker walker;
    ScanSession session;
    volatile boolean done;
    Throwable failure;
    String stoppedAt;
    long newerFinishedWhenListed;
    int startedAt;
    /** The listings this scan has applied, by directory (reported by its listener after each one). */
    final Map<Path, List<WalkedEntry>> applied = new ConcurrentHashMap<>();

    SteppedScan(int number, Path treeRoot, Path root, boolean full, BlockingQueue<Event> events) {
        this.number = number;
        this.root = root;
        this.shown = "/" + treeRoot.relativize(root);
        this.full = full;
        this.walker = new SteppingWalker(this, treeRoot, events);
    }

    @Override
    public String toString() {
        return "scan#" + number + (session == null ? "" : " (id " + session.scanId() + ")") + " of " + shown;
    }

    /** A scan stopped at a point (where is non-null) or finished (where is null). */
    record Event(SteppedScan scan, String where) {
    }
}
