package io.fsindex.testkit;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanSession;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.core.scan.ListingPause;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The concurrent-scan protocol under random interleavings, on a real database and a real filesystem. Each try builds
 * a small random tree, indexes it, then runs a random schedule: filesystem changes, full and subtree scans started in
 * random order, and single steps of running scans. Every scan runs on a {@link SteppingWalker} that stops it when it
 * starts, before it lists a directory and after it has read the listing (so it can hold a stale listing across
 * changes and newer scans); the schedule decides which stopped scan takes its next step, and only one scan moves at a
 * time, so a try is fully determined by its generated values. The scans walk as every scan does, reading listings on
 * a walker thread ahead of applying them; a stop comes once the scan has applied what it read before
 * ({@link ListingPause}), so a listing may be read before its directory is claimed and applied steps later. jqwik reports the seed and the shrunk schedule of a
 * failing try; {@code @Property(seed = "...")} replays it.
 *
 * <p>After every step (all scans stopped or finished) the file table must hold no row under a non-directory, no
 * orphan, no stale mark of a finished scan, and no row below a directory that differs from what the directory's
 * newest lister saw unless that scan or a newer one wrote it; no row's scan_id or listed_by may have gone down; and a path that
 * has existed all along since every running scan started must keep its row. After the last change a final full scan
 * starts, possibly while older scans still hold stale listings: when it has finished the index must equal the tree,
 * and again once every scan has finished, with no stale mark left.
 *
 * <p>A dialect's test extends this class like {@link FsIndexConformanceTest}. jqwik does not run JUnit Jupiter
 * extensions, so create the database's directory in a static {@code @BeforeContainer} method instead of with
 * {@code @TempDir}, and delete it leniently in {@code @AfterContainer}: after a failure, a try abandoned at jqwik's
 * shrinking time bound may still be closing its index.
 */
public abstract class ScanPropertyConformanceTest {
    /** Few names, two differing only in case, so that changes collide and reuse names. */
    private static final List<String> NAMES = List.of("a", "A", "b", "c");
    private static final int MAX_DEPTH = 3;
    private static final int MAX_RUNNING_SCANS = 4;
    private static final long STEP_TIMEOUT_SECONDS = 60;

    /** The database under test; called once per try, so return a shared instance. */
    protected abstract TestDatabase database();

    /** A change to the tree; {@code target}, {@code place} and {@code name} pick among what exists when it runs. */
    enum Change { ADD_FILE, ADD_DIR, DELETE, MODIFY_FILE, DIR_TO_FILE, FILE_TO_DIR, RENAME }

    /** One step of a schedule. */
    sealed interface Step permits Mutate, StartScan, Advance {
    }

    /** Changes the tree on disk. */
    record Mutate(Change change, int target, int place, int name, int size) implements Step {
    }

    /** Starts a scan of the whole tree, or of one entry in it (a directory or a file). */
    record StartScan(boolean full, int target) implements Step {
    }

    /** Lets one stopped scan (picked among those stopped) take one step. */
    record Advance(int pick) implements Step {
    }

    // Guards the whole protocol (scan_id guards, listed_by gate, stale ownership, sweep) under random interleavings.
    @Property(tries = 60)
    void interleavedScansAndChangesLeaveTheIndexEqualToTheTree(
            @ForAll("initialTrees") List<Mutate> initialTree,
            @ForAll("schedules") List<Step> schedule,
            @ForAll("finalPicks") List<Integer> finalPicks) throws Exception {
        try (Run run = new Run(database())) {
            initialTree.forEach(run::mutate);
            run.scanToCompletion();
            for (Step step : schedule) {
                if (step instanceof Mutate m) {
                    run.mutate(m);
                } else if (step instanceof StartScan s) {
                    run.start(s);
                } else if (step instanceof Advance a) {
                    run.advance(a.pick());
                }
                run.checkQuiescentInvariants();
            }

            // The final full scan starts after the last change; older scans may still hold stale listings.
            Scan last = run.startFinal();
            int i = 0;
            while (!last.done) {
                run.advance(i < finalPicks.size() ? finalPicks.get(i++) : run.positionOf(last));
                run.checkQuiescentInvariants();
            }
            run.checkFinished(last);
            run.checkIndexEqualsTree("when the final scan finished");

            while (run.anyStopped()) {
                run.advance(finalPicks.isEmpty() ? 0 : finalPicks.get(i++ % finalPicks.size()));
                run.checkQuiescentInvariants();
            }
            run.checkAllFinished();
            run.checkIndexEqualsTree("when every scan finished");
            run.checkNoStaleRows();
            Statistics.label("scans per try").collect(run.scans.size());
            Statistics.label("listings applied after a newer scan finished").collect(run.lateListings > 0);
        }
    }

    @Provide
    Arbitrary<List<Mutate>> initialTrees() {
        return mutation(Arbitraries.of(Change.ADD_FILE, Change.ADD_DIR)).list().ofMinSize(3).ofMaxSize(14);
    }

    @Provide
    Arbitrary<List<Step>> schedules() {
        Arbitrary<Integer> pick = Arbitraries.integers().between(0, 99);
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                Tuple.of(3, mutation(Arbitraries.of(Change.class))),
                Tuple.of(2, Combinators.combine(Arbitraries.of(true, false), pick).as(StartScan::new)),
                Tuple.of(7, pick.map(Advance::new)));
        return step.list().ofMinSize(4).ofMaxSize(40);
    }

    @Provide
    Arbitrary<List<Integer>> finalPicks() {
        return Arbitraries.integers().between(0, 99).list().ofMaxSize(30);
    }

    private static Arbitrary<Mutate> mutation(Arbitrary<Change> changes) {
        Arbitrary<Integer> pick = Arbitraries.integers().between(0, 99);
        return Combinators.combine(changes, pick, pick, pick, Arbitraries.integers().between(0, 40)).as(Mutate::new);
    }

    /** One scan of a try, with where it is stopped. */
    static final class Scan {
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

        Scan(int number, Path treeRoot, Path root, boolean full, BlockingQueue<Event> events) {
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
    }

    /** A scan stopped at a point (where is non-null) or finished (where is null). */
    record Event(Scan scan, String where) {
    }

    /**
     * Wraps {@link NioWalker} and stops its scan at its first filesystem access (before the scan writes anything),
     * before each listing and after each listing (also a failed one), until the scheduler lets it take one step.
     */
    static final class SteppingWalker extends ForwardingWalker {
        private final Scan scan;
        private final Path treeRoot;
        private final BlockingQueue<Event> events;
        private final Semaphore steps = new Semaphore(0);
        private final AtomicBoolean started = new AtomicBoolean();
        /** The last listing of each directory this walker read. */
        final Map<Path, List<WalkedEntry>> listings = new ConcurrentHashMap<>();
        private volatile boolean freeRunning;

        SteppingWalker(Scan scan, Path treeRoot, BlockingQueue<Event> events) {
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

    /** One try: a tree, an index, the scans and the log of what happened, for the failure message. */
    static final class Run implements AutoCloseable {
        final Path root;
        final FsIndex index;
        final IndexInvariants invariants;
        final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        final List<Scan> scans = new ArrayList<>();
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

        Run(TestDatabase database) throws IOException {
            String prefix = TestDatabase.freshPrefix();
            invariants = new IndexInvariants(database, prefix);
            index = database.builder(prefix).build();
            try {
                root = Files.createTempDirectory("fsindex-property").toRealPath().resolve("tree");
                Files.createDirectory(root);
            } catch (IOException | RuntimeException e) {
                index.close();
                throw e;
            }
        }

        void scanToCompletion() throws InterruptedException {
            Scan s = startScan(root, true);
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
                List<Path> entries = entries();
                if (!entries.isEmpty()) {
                    target = entries.get(step.target() % entries.size());
                }
            }
            startScan(target, target.equals(root));
        }

        Scan startFinal() throws InterruptedException {
            log.append("-- final full scan --\n");
            return startScan(root, true);
        }

        private Scan startScan(Path target, boolean full) throws InterruptedException {
            Scan s = new Scan(scans.size(), root, target, full, events);
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
            List<Scan> stopped = stopped();
            if (!stopped.isEmpty()) {
                advanceScan(stopped.get(pick % stopped.size()));
            }
        }

        int positionOf(Scan scan) {
            return stopped().indexOf(scan);
        }

        boolean anyStopped() {
            return !stopped().isEmpty();
        }

        private long newerFinished(Scan s) {
            return scans.stream().filter(t -> t.done && t.number > s.number).count();
        }

        private List<Scan> stopped() {
            return scans.stream().filter(s -> !s.done).toList();
        }

        private void advanceScan(Scan s) throws InterruptedException {
            if (s.stoppedAt.startsWith("after") && newerFinished(s) > s.newerFinishedWhenListed) {
                lateListings++;
            }
            s.walker.step();
            awaitEvent(s);
        }

        /** Waits until {@code moving}, the only scan not stopped, stops again or finishes. */
        private void awaitEvent(Scan moving) throws InterruptedException {
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
        private void checkOutcome(Scan s) {
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

        void checkFinished(Scan s) {
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
            checkUnwrittenRowsAreWhatTheirListerSaw();
            Map<Long, long[]> now = invariants.versions();
            for (Map.Entry<Long, long[]> row : now.entrySet()) {
                long[] before = versions.get(row.getKey());
                if (before != null && (row.getValue()[0] < before[0] || row.getValue()[1] < before[1])) {
                    throw failure("row " + row.getKey() + " went back from scan_id " + before[0] + ", listed_by "
                            + before[1] + " to scan_id " + row.getValue()[0] + ", listed_by " + row.getValue()[1]);
                }
            }
            versions = now;
            checkStableRowsKept();
        }

        /**
         * A listing writes only what changed, so a row below a directory may be older than the scan that listed the
         * directory. What must hold: while scan S is the newest to have listed directory D (D.listed_by = S) and S has
         * applied its listing of D, every row below D with scan_id < S is one S saw in that listing, exactly as S saw
         * it and not stale (S found it unchanged and left it). Anything else S saw differently it wrote (scan_id = S),
         * anything it did not see it marked (scan_id = S), and no other scan older than S can have written below D
         * since (the owner check), nor an older scan above it through a trunk or root (the parent guard).
         */
        private void checkUnwrittenRowsAreWhatTheirListerSaw() {
            Map<Long, List<IndexInvariants.RawRow>> byParent = new HashMap<>();
            Map<Long, IndexInvariants.RawRow> byId = new HashMap<>();
            for (IndexInvariants.RawRow r : invariants.rows()) {
                byParent.computeIfAbsent(r.parent(), k -> new ArrayList<>()).add(r);
                byId.put(r.id(), r);
            }
            for (Scan s : scans) {
                if (s.session == null) {
                    continue;
                }
                long id = s.session.scanId();
                for (Map.Entry<Path, List<WalkedEntry>> applied : s.applied.entrySet()) {
                    Optional<FileEntry> dir = index.lookup(applied.getKey());
                    if (dir.isEmpty() || byId.get(dir.get().id()) == null
                            || byId.get(dir.get().id()).listedBy() != id) {
                        continue;
                    }
                    Map<String, WalkedEntry> seen = new HashMap<>();
                    applied.getValue().forEach(e -> seen.put(e.name(), e));
                    for (IndexInvariants.RawRow row : byParent.getOrDefault(dir.get().id(), List.of())) {
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
        private void checkStableRowsKept() {
            Map<String, FileEntry> indexed = new HashMap<>();
            collect(root, indexed);
            for (Map.Entry<String, Long> stable : stableIds.entrySet()) {
                FileEntry row = indexed.get(stable.getKey());
                if (row == null || row.id() != stable.getValue()) {
                    throw failure("the row of /" + stable.getKey() + " (id " + stable.getValue()
                            + "), which has existed all along, was "
                            + (row == null ? "deleted" : "replaced by id " + row.id()));
                }
            }
            int oldestRunning = scans.stream().filter(s -> !s.done).mapToInt(s -> s.startedAt).min()
                    .orElse(Integer.MAX_VALUE);
            indexed.forEach((path, row) -> {
                if (row.kind().name().equals(diskKinds.get(path)) && bornAt.getOrDefault(path, 0) < oldestRunning) {
                    stableIds.putIfAbsent(path, row.id());
                }
            });
        }

        private void collect(Path dir, Map<String, FileEntry> out) {
            for (FileEntry e : index.children(dir)) {
                out.put(root.relativize(e.path()).toString(), e);
                if (e.kind() == FileKind.DIRECTORY) {
                    collect(e.path(), out);
                }
            }
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
                String done = apply(m);
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

        private String apply(Mutate m) throws IOException {
            switch (m.change()) {
                case ADD_FILE, ADD_DIR -> {
                    Path parent = pick(directories().stream().filter(d -> depth(d) < MAX_DEPTH).toList(), m.place());
                    Path added = parent == null ? null : freeName(parent, m.name());
                    if (added == null) {
                        return null;
                    }
                    if (m.change() == Change.ADD_DIR) {
                        Files.createDirectory(added);
                    } else {
                        write(added, m.size());
                    }
                    return rel(added);
                }
                case DELETE -> {
                    Path target = pick(entries(), m.target());
                    if (target == null) {
                        return null;
                    }
                    Trees.delete(target);
                    return rel(target);
                }
                case MODIFY_FILE -> {
                    Path target = pick(files(), m.target());
                    if (target == null) {
                        return null;
                    }
                    int size = m.size() == Files.size(target) ? m.size() + 1 : m.size();
                    write(target, size);
                    return rel(target) + " to " + size + " bytes";
                }
                case DIR_TO_FILE -> {
                    Path target = pick(directories().stream().filter(d -> !d.equals(root)).toList(), m.target());
                    if (target == null) {
                        return null;
                    }
                    Trees.delete(target);
                    write(target, m.size());
                    return rel(target);
                }
                case FILE_TO_DIR -> {
                    Path target = pick(files(), m.target());
                    if (target == null) {
                        return null;
                    }
                    Files.delete(target);
                    Files.createDirectory(target);
                    if (depth(target) < MAX_DEPTH) {
                        write(target.resolve(NAMES.get(m.name() % NAMES.size())), m.size());
                    }
                    return rel(target);
                }
                case RENAME -> {
                    Path source = pick(entries(), m.target());
                    if (source == null) {
                        return null;
                    }
                    int height = height(source);
                    List<Path> places = directories().stream()
                            .filter(d -> !d.startsWith(source) && depth(d) + 1 + height <= MAX_DEPTH).toList();
                    Path parent = pick(places, m.place());
                    Path destination = parent == null ? null : freeName(parent, m.name());
                    if (destination == null) {
                        return null;
                    }
                    Files.move(source, destination);
                    return rel(source) + " to " + rel(destination);
                }
                default -> throw new IllegalStateException(m.change().name());
            }
        }

        private Path freeName(Path parent, int pick) {
            for (int i = 0; i < NAMES.size(); i++) {
                Path candidate = parent.resolve(NAMES.get((pick + i) % NAMES.size()));
                if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)) {
                    return candidate;
                }
            }
            return null;
        }

        private static <T> T pick(List<T> candidates, int pick) {
            return candidates.isEmpty() ? null : candidates.get(pick % candidates.size());
        }

        /** Every entry under the root, in a stable order. */
        List<Path> entries() {
            try (Stream<Path> s = Files.walk(root)) {
                return s.filter(p -> !p.equals(root)).sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private List<Path> directories() {
            List<Path> dirs = new ArrayList<>();
            dirs.add(root);
            entries().stream().filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).forEach(dirs::add);
            return dirs;
        }

        private List<Path> files() {
            return entries().stream().filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
        }

        private int depth(Path p) {
            return root.relativize(p).toString().isEmpty() ? 0 : root.relativize(p).getNameCount();
        }

        private int height(Path p) {
            try (Stream<Path> s = Files.walk(p)) {
                return s.mapToInt(d -> p.relativize(d).toString().isEmpty() ? 0 : p.relativize(d).getNameCount())
                        .max().orElse(0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private String rel(Path p) {
            return "/" + root.relativize(p);
        }

        private static void write(Path file, int size) throws IOException {
            Files.writeString(file, "x".repeat(size));
        }

        @Override
        public void close() {
            scans.forEach(s -> s.walker.runFree());
            try {
                index.close();
            } finally {
                Trees.delete(Objects.requireNonNull(root.getParent()));
            }
        }
    }
}
