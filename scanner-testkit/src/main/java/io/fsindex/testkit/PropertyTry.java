package io.fsindex.testkit;

import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.ScanPropertyConformanceTest.Mutate;
import io.fsindex.testkit.ScanPropertyConformanceTest.StartScan;
import io.fsindex.testkit.SteppedScan.Event;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One try: a tree, an index, the scans and the log of what happened, for the failure message. */
final class PropertyTry implements AutoCloseable {
    private static final int MAX_RUNNING_SCANS = 4;
    private static final long STEP_TIMEOUT_SECONDS = 60;

    final Path root;
    /** Applies the property's changes to the tree under {@link #root}. */
    private final PropertyTreeChanges tree;
    final FsIndex index;
    final IndexInvariants invariants;
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final List<SteppedScan> scans = new ArrayList<>();
    final StringBuilder log = new StringBuilder();
    int lateListings;
    /** Counts changes and scan starts, to order them. */
    int clock;
    /** Kind of every entry on disk now, by relative path. */
    Map<String, String> diskKinds = Map.of();
    /** When each path (as it is now: same kind, not deleted since) came to exist, on {@link #clock}. */
    final Map<String, Integer> bornAt = new HashMap<>();
    /** Row ids of paths that have existed all along since every scan still running started. */
    final Map<String, Long> stableIds = new HashMap<>();
    /** scan_id and listed_by of every row at the previous check. */
    Map<Long, long[]> versions = Map.of();

    PropertyTry(TestDatabase database) throws IOException {
        String prefix = TestDatabase.freshPrefix();
        invariants = new IndexInvariants(database, prefix);
        index = database.builder(prefix).build();
        try {
            root = Files.createTempDirectory("fsindex-property").toRealPath().resolve("tree");
            Files.createDirectory(root);
            tree = new PropertyTreeChanges(root);
        } catch (IOException | RuntimeException e) {
            index.close();
            throw e;
        }
    }

    void scanToCompletion() throws InterruptedException {
        SteppedScan s = startScan(root, true);
        while (!s.done) {
            advanceScan(s);
        }
        checkFinished(s);
    }

    void start(StartScan step) throws InterruptedException {
        if (scans.stream().filter(s -> !s.done).count() >= MAX_RUNNING_SCANS) {
            log.append("(start skipped: ").append(MAX_RUNNING_SCANS).append(" scans running)\n");
            return;
        }
        Path target = root;
        if (!step.full()) {
            List<Path> entries = tree.entries();
            if (!entries.isEmpty()) {
                target = entries.get(step.target() % entries.size());
            }
        }
        startScan(target, target.equals(root));
    }

    SteppedScan startFinal() throws InterruptedException {
        log.append("-- final full scan --\n");
        return startScan(root, true);
    }

    private SteppedScan startScan(Path target, boolean full) throws InterruptedException {
        SteppedScan s = new SteppedScan(scans.size(), root, target, full, events);
        s.startedAt = ++clock;
        scans.add(s);
        s.session = index.startScan(target, ScanOptions.defaults().withWalker(s.walker)
                .withListener(new ScanListener() {
                    @Override
                    public void progress(ScanProgress p) {
                        s.applied.put(p.current(), s.walker.listings.get(p.current()));
                    }
                }));
        log.append("start ").append(s).append('\n');
        Thread watcher = new Thread(() -> {
            try {
                s.session.await();
            } catch (Throwable t) {
                s.failure = t;
            }
            events.add(new Event(s, null));
        }, "await-" + s);
        watcher.setDaemon(true);
        watcher.start();
        awaitEvent(s);
        return s;
    }

    /** Lets the stopped scan at position {@code pick} (modulo their number) take one step; no-op if none. */
    void advance(int pick) throws InterruptedException {
        List<SteppedScan> stopped = stopped();
        if (!stopped.isEmpty()) {
            advanceScan(stopped.get(pick % stopped.size()));
        }
    }

    int positionOf(SteppedScan scan) {
        return stopped().indexOf(scan);
    }

    boolean anyStopped() {
        return !stopped().isEmpty();
    }

    private long newerFinished(SteppedScan s) {
        return scans.stream().filter(t -> t.done && t.number > s.number).count();
    }

    private List<SteppedScan> stopped() {
        return scans.stream().filter(s -> !s.done).toList();
    }

    private void advanceScan(SteppedScan s) throws InterruptedException {
        if (s.stoppedAt.startsWith("after") && newerFinished(s) > s.newerFinishedWhenListed) {
            lateListings++;
        }
        s.walker.step();
        awaitEvent(s);
    }

    /** Waits until {@code moving}, the only scan not stopped, stops again or finishes. */
    private void awaitEvent(SteppedScan moving) throws InterruptedException {
        Event e = events.poll(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (e == null) {
            throw failure(moving + " neither stopped nor finished within " + STEP_TIMEOUT_SECONDS + "s");
        }
        if (e.scan() != moving) {
            throw failure("expected an event of " + moving + " but " + e.scan() + " moved");
        }
        if (e.where() == null) {
            moving.done = true;
            log.append("  ").append(moving).append(moving.failure == null ? " completed"
                    : " failed: " + moving.failure.getMessage()).append('\n');
            checkOutcome(moving);
        } else {
            moving.stoppedAt = e.where();
            if (e.where().startsWith("after")) {
                moving.newerFinishedWhenListed = newerFinished(moving);
            }
            log.append("  ").append(moving).append(" stopped ").append(e.where()).append('\n');
        }
    }

    /**
     * A full scan must complete. A subtree scan may fail only as a scan whose root vanished or cannot be read
     * (it then deletes nothing); a database error, e.g. a foreign-key violation, is a protocol failure.
     */
    private void checkOutcome(SteppedScan s) {
        Throwable f = s.failure;
        if (f == null) {
            return;
        }
        boolean databaseError = false;
        for (Throwable t = f; t != null; t = t.getCause()) {
            databaseError |= t instanceof SQLException;
        }
        if (s.full || databaseError || !(f instanceof ScanFailedException)
                || !String.valueOf(f.getMessage()).contains("nothing was deleted")) {
            AssertionError error = failure(s + " failed: " + f);
            error.initCause(f);
            throw error;
        }
    }

    void checkFinished(SteppedScan s) {
        if (!s.done || s.failure != null) {
            throw failure(s + " did not complete");
        }
    }

    void checkAllFinished() {
        scans.stream().filter(s -> !s.done).findFirst().ifPresent(s -> {
            throw failure(s + " is still running");
        });
    }

    /**
     * What holds whenever every scan is stopped or finished: no row under a non-directory, no orphan, no stale mark
     * of a finished scan, no unwritten row that differs from what its directory's lister saw; no row's
     * scan_id or listed_by ever went down (an older scan never takes a row or a directory back from a newer one);
     * and a path that has existed all along keeps its row (no scan deletes what it, or a newer scan, can see).
     */
    void checkQuiescentInvariants() {
        List<String> underFiles = invariants.childrenOfNonDirectories();
        if (!underFiles.isEmpty()) {
            throw failure("rows under non-directories: " + underFiles);
        }
        List<String> orphans = invariants.orphans();
        if (!orphans.isEmpty()) {
            throw failure("orphan rows: " + orphans);
        }
        List<String> leftOver = invariants.staleRowsOfScansNotRunning();
        if (!leftOver.isEmpty()) {
            throw failure("stale rows of scans that are no longer running: " + leftOver);
        }
        LiveRows live = new LiveRows(invariants.rows());
        checkUnwrittenRowsAreWhatTheirListerSaw(live);
        Map<Long, long[]> now = invariants.versions();
        for (Map.Entry<Long, long[]> row : now.entrySet()) {
            long[] before = versions.get(row.getKey());
            if (before != null && (row.getValue()[0] < before[0] || row.getValue()[1] < before[1])) {
                throw failure("row " + row.getKey() + " went back from scan_id " + before[0] + ", listed_by "
                        + before[1] + " to scan_id " + row.getValue()[0] + ", listed_by " + row.getValue()[1]);
            }
        }
        versions = now;
        checkStableRowsKept(live);
    }

    /**
     * A listing writes only what changed, so a row below a directory may be older than the scan that listed the
     * directory. What must hold: while scan S is the newest to have listed directory D (D.listed_by = S) and S has
     * applied its listing of D, every row below D with scan_id < S is one S saw in that listing, exactly as S saw
     * it and not stale (S found it unchanged and left it). Anything else S saw differently it wrote (scan_id = S),
     * anything it did not see it marked (scan_id = S), and no other scan older than S can have written below D
     * since (the owner check), nor an older scan above it through a trunk or root (the parent guard).
     */
    private void checkUnwrittenRowsAreWhatTheirListerSaw(LiveRows live) {
        for (SteppedScan s : scans) {
            if (s.session == null) {
                continue;
            }
            long id = s.session.scanId();
            for (Map.Entry<Path, List<WalkedEntry>> applied : s.applied.entrySet()) {
                IndexInvariants.RawRow dir = live.at(applied.getKey());
                if (dir == null || dir.listedBy() != id) {
                    continue;
                }
                Map<String, WalkedEntry> seen = new HashMap<>();
                applied.getValue().forEach(e -> seen.put(e.name(), e));
                for (IndexInvariants.RawRow row : live.children(dir.id())) {
                    if (row.scanId() >= id) {
                        continue;
                    }
                    WalkedEntry e = seen.get(row.name());
                    String where = "/" + root.relativize(applied.getKey().resolve(row.name()));
                    if (e == null) {
                        throw failure(where + " has a row from scan " + row.scanId() + " below a directory "
                                + s + " listed without seeing it");
                    }
                    if (e.isReadable() && (row.stale() || !row.kind().equals(e.stat().kind().name())
                            || row.size() != e.stat().size() || row.mtime() != e.stat().mtimeNanos()
                            || !Objects.equals(row.linkTarget(), e.stat().linkTarget()))) {
                        throw failure(where + " has a row from scan " + row.scanId() + " (" + row + ") below a"
                                + " directory " + s + " listed, which saw it as " + e.stat());
                    }
                }
            }
        }
    }

    /**
     * A scan that started after a path came to exist lists it in every listing of its parent, so it confirms the
     * row instead of sweeping it (or leaves it to a newer scan). Hence once no running scan is older than the
     * path, its row must stay, with the same id, for as long as the path exists unchanged in kind.
     */
    private void checkStableRowsKept(LiveRows live) {
        Map<String, IndexInvariants.RawRow> indexed = live.below(root);
        for (Map.Entry<String, Long> stable : stableIds.entrySet()) {
            IndexInvariants.RawRow row = indexed.get(stable.getKey());
            if (row == null || row.id() != stable.getValue()) {
                throw failure("the row of /" + stable.getKey() + " (id " + stable.getValue()
                        + "), which has existed all along, was "
                        + (row == null ? "deleted" : "replaced by id " + row.id()));
            }
        }
        int oldestRunning = scans.stream().filter(s -> !s.done).mapToInt(s -> s.startedAt).min()
                .orElse(Integer.MAX_VALUE);
        indexed.forEach((path, row) -> {
            if (row.kind().equals(diskKinds.get(path)) && bornAt.getOrDefault(path, 0) < oldestRunning) {
                stableIds.putIfAbsent(path, row.id());
            }
        });
    }

    void checkIndexEqualsTree(String when) {
        Map<String, String> disk = Trees.onDisk(root);
        Map<String, String> indexed = Trees.inIndex(index, root);
        if (!indexed.equals(disk)) {
            throw failure("index differs from the tree " + when + "\n  disk:  " + disk + "\n  index: " + indexed);
        }
        checkQuiescentInvariants();
    }

    void checkNoStaleRows() {
        List<String> stale = invariants.staleRows();
        if (!stale.isEmpty()) {
            throw failure("stale rows left after every scan finished: " + stale);
        }
    }

    private AssertionError failure(String message) {
        return new AssertionError(message + "\n-- what happened --\n" + log + "-- tree now --\n"
                + Trees.onDisk(root));
    }

    // ---- changes to the tree ----

    void mutate(Mutate m) {
        try {
            String done = tree.apply(m);
            recordChangedPaths();
            log.append(m.change().name().toLowerCase()).append(' ').append(done == null ? "(nothing to do)" : done)
                    .append('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Notes which paths the last change created, replaced or removed. */
    private void recordChangedPaths() {
        clock++;
        Map<String, String> now = new HashMap<>();
        Trees.onDisk(root).forEach((path, kindAndSize) -> now.put(path, kindAndSize.split(":")[0]));
        now.forEach((path, kind) -> {
            if (!kind.equals(diskKinds.get(path))) {
                bornAt.put(path, clock);
                stableIds.remove(path);
            }
        });
        diskKinds.keySet().stream().filter(path -> !now.containsKey(path)).forEach(stableIds::remove);
        diskKinds = now;
    }

    @Override
    public void close() {
        scans.forEach(s -> s.walker.runFree());
        try (invariants) {
            index.close();
        } finally {
            Trees.delete(Objects.requireNonNull(root.getParent()));
        }
    }
}
