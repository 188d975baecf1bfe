package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How a scan's row tells a live scan from a dead one, on a real database: a running scan refreshes its heartbeat; one
 * whose process or connection is gone is shown {@code ABANDONED} by reads and recorded so by the next scan's start;
 * a final status write that fails on the scan's connection is made on a fresh one, or reported; and nothing a dead
 * scan left makes a later scan lose an entry.
 */
public abstract class ScanLifecycleConformanceTest extends IndexTest {
    private static final long HOUR = TimeUnit.HOURS.toMillis(1);

    private String state(RawIndex raw, long scan) throws Exception {
        String[] state = new String[1];
        raw.forEachRow("SELECT state FROM ${prefix}scans WHERE id = " + scan, row -> state[0] = row.getString(1));
        return state[0];
    }

    private static ScanRecord record(IndexReader index, long scan) {
        return index.info(100).recentScans().stream().filter(s -> s.id() == scan).findFirst().orElseThrow();
    }

    /**
     * A scan SIGKILLed midway (after it marked rows stale and before it swept) leaves its row RUNNING and its marks;
     * once its lease has run out (here: its heartbeat aged by an hour) the next scan records it ABANDONED, ended when it
     * last showed life, and gives an index equal to the tree, which changed meanwhile.
     */
    @Test
    void aScanKilledMidwayIsRecordedAbandonedAndTheNextScanGivesTheTree() throws Exception {
        Path root = tree("a/", "a/1", "a/2", "b/", "b/c/", "b/c/3", "b/d/", "b/d/4", "e/", "e/5", "6");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.create(root, "a/new", "b/c/new/");
        Files.delete(root.resolve("6"));        // the root's listing, applied before b's: the killed scan marks it stale
        Files.delete(root.resolve("a/2"));
        Files.delete(root.resolve("e/5"));

        Path announce = tmp.resolve("paused");
        Process child = PausedScanChild.start(database().properties(prefix()), tmp, root, root.resolve("b"),
                announce);
        long dead;
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(announce)) {
                assertThat(child.isAlive()).as("the child died: %s", Files.readString(tmp.resolve("paused-child.log")))
                        .isTrue();
                assertThat(System.nanoTime()).as("the child never paused").isLessThan(deadline);
                Thread.sleep(10); // another JVM's progress can only be observed by polling
            }
            dead = Long.parseLong(Files.readString(announce));
        } finally {
            child.destroyForcibly();
        }
        assertThat(child.waitFor(1, TimeUnit.MINUTES)).isTrue();

        RawIndex raw = new RawIndex(database(), prefix());
        assertThat(state(raw, dead)).isEqualTo("RUNNING");
        assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE scan_id = " + dead))
                .as("the killed scan had written rows").isPositive();
        assertThat(raw.staleRows()).as("the killed scan left stale marks").isPositive();
        long lastAlive = raw.queryLong("SELECT heartbeat_at FROM ${prefix}scans WHERE id = " + dead) - HOUR;
        raw.update("UPDATE ${prefix}scans SET heartbeat_at = " + lastAlive + " WHERE id = " + dead);

        Trees.create(root, "b/d/later", "f/");
        Trees.delete(root.resolve("a/1"));
        long next = index.scan(root).scanId();

        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        assertThat(raw.staleRows()).isZero();
        assertThat(raw.orphans()).isZero();
        assertThat(state(raw, dead)).isEqualTo("ABANDONED");
        ScanRecord abandoned = record(index, dead);
        assertThat(abandoned.state()).isEqualTo("ABANDONED");
        assertThat(abandoned.finishedAt()).isEqualTo(Instant.ofEpochMilli(lastAlive));
        assertThat(abandoned.message()).contains("no sign of life").doesNotContain("not yet recorded");
        assertThat(record(index, next).state()).isEqualTo("COMPLETED");
    }

    /**
     * A RUNNING row whose heartbeat is older than the lease reads as ABANDONED at once, through a read-only reader
     * too, which writes nothing; the next scan's start records it.
     */
    @Test
    void aStaleRunningScanReadsAbandonedAndTheNextScanRecordsIt() throws Exception {
        Path root = tree("x");
        FsIndex index = openIndex();
        RawIndex raw = new RawIndex(database(), prefix());
        long started = System.currentTimeMillis() - 2 * HOUR;
        raw.update("INSERT INTO ${prefix}scans (root, state, started_at, heartbeat_at) VALUES ('/gone', 'RUNNING', "
                + started + ", " + (started + 1000) + ")");
        long dead = raw.queryLong("SELECT MAX(id) FROM ${prefix}scans");

        try (IndexReader reader = database().builder(prefix()).buildReader()) {
            ScanRecord shown = record(reader, dead);
            assertThat(shown.state()).isEqualTo("ABANDONED");
            assertThat(shown.finishedAt()).isEqualTo(Instant.ofEpochMilli(started + 1000));
            assertThat(shown.message()).contains("not yet recorded");
        }
        assertThat(state(raw, dead)).isEqualTo("RUNNING");

        index.scan(root);
        assertThat(state(raw, dead)).isEqualTo("ABANDONED");
        assertThat(raw.queryLong("SELECT finished_at FROM ${prefix}scans WHERE id = " + dead))
                .isEqualTo(started + 1000);
        assertThat(record(index, dead).message()).doesNotContain("not yet recorded");
        assertThatThrownBy(() -> raw.update("UPDATE ${prefix}scans SET state = 'BOGUS' WHERE id = " + dead))
                .as("the state check still refuses unknown states").isInstanceOf(java.sql.SQLException.class);
    }

    /**
     * A scan that stays paused for longer than several leases is still alive: its heartbeat moves on, another
     * handle's reads and scans see it RUNNING, and it completes.
     */
    @Test
    void aLiveScanPausedLongerThanItsLeaseStaysRunning() throws Exception {
        // Long enough that a heartbeat thread starved of CPU for a moment (test JVMs run side by side) is not late.
        Duration lease = Duration.ofSeconds(2);
        Path root = tree("p/", "p/1", "q/", "q/2");
        FsIndex index = openIndex(b -> b.scanLease(lease));
        FsIndex other = track(database().builder(prefix()).scanLease(lease).build());
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(root.resolve("p"));
        ScanSession live = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        try {
            pause.awaitPaused();
            RawIndex raw = new RawIndex(database(), prefix());
            long started = raw.queryLong("SELECT started_at FROM ${prefix}scans WHERE id = " + live.scanId());
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (raw.queryLong("SELECT heartbeat_at FROM ${prefix}scans WHERE id = " + live.scanId())
                    < started + 5 * lease.toMillis() / 2) {
                assertThat(System.nanoTime()).as("the paused scan's heartbeat never moved on").isLessThan(deadline);
                Thread.sleep(20); // the heartbeat is written by another thread on its own schedule
            }
            assertThat(record(other, live.scanId()).state()).isEqualTo("RUNNING");
            other.scan(root.resolve("q"));
            assertThat(state(raw, live.scanId())).isEqualTo("RUNNING");
        } finally {
            walker.releaseAll();
        }
        live.await();
        assertThat(record(other, live.scanId()).state()).isEqualTo("COMPLETED");
    }

    /** A scan whose connection is lost fails, and its outcome is still recorded, on a fresh connection. */
    @Test
    void theOutcomeOfAScanThatLostItsConnectionIsRecordedOnAFreshOne() throws Exception {
        Path root = tree("p/", "p/1", "q/", "q/2");
        BreakableDataSource connections = new BreakableDataSource(database());
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(connections.builder(prefix).build());
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(root.resolve("p"));
        int before = connections.handedOut();
        ScanSession scan = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused();
        connections.connection(before).close();
        pause.release();

        assertThatThrownBy(scan::await).isInstanceOf(ScanFailedException.class);
        RawIndex raw = new RawIndex(database(), prefix);
        assertThat(state(raw, scan.scanId())).isEqualTo("FAILED");
        assertThat(raw.queryLong("SELECT finished_at FROM ${prefix}scans WHERE id = " + scan.scanId())).isPositive();
    }

    /** If the outcome cannot be recorded on a fresh connection either, the caller is told so. */
    @Test
    void anOutcomeThatCannotBeRecordedIsReported() throws Exception {
        Path root = tree("p/", "p/1", "q/", "q/2");
        BreakableDataSource connections = new BreakableDataSource(database());
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(connections.builder(prefix).build());
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(root.resolve("p"));
        int before = connections.handedOut();
        ScanSession scan = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused();
        connections.refuseNewConnections();
        connections.connection(before).close();
        pause.release();

        assertThatThrownBy(scan::await).isInstanceOf(ScanFailedException.class)
                .satisfies(e -> assertThat(allMessages(e)).contains("recording that in the")
                        .contains("also on a fresh connection").contains("connection refused"));
        assertThat(state(new RawIndex(database(), prefix), scan.scanId())).isEqualTo("RUNNING");
    }

    private static String allMessages(Throwable e) {
        StringBuilder all = new StringBuilder();
        java.util.ArrayDeque<Throwable> pending = new java.util.ArrayDeque<>(List.of(e));
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        while (!pending.isEmpty()) {
            Throwable t = pending.pop();
            if (seen.add(t)) {
                all.append(t.getMessage()).append('\n');
                if (t.getCause() != null) {
                    pending.push(t.getCause());
                }
                pending.addAll(List.of(t.getSuppressed()));
            }
        }
        return all.toString();
    }

    /**
     * A database left at version 3, with a scan stuck RUNNING since before the upgrade, is migrated to the current
     * version; the stuck scan, whose last sign of life is its start, is recognised and recorded ABANDONED.
     */
    @Test
    void aVersion3DatabaseIsMigratedAndItsStuckScanIsRecognised() throws Exception {
        RawIndex raw = indexAtSchemaVersion(3);
        long started = System.currentTimeMillis() - 3 * HOUR;
        raw.update("INSERT INTO ${prefix}scans (root, state, started_at) VALUES ('/stuck', 'RUNNING', " + started
                + ")");
        long stuck = raw.queryLong("SELECT MAX(id) FROM ${prefix}scans");

        FsIndex index = reopenIndex();
        assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaScripts.currentVersion());
        assertThat(record(index, stuck).state()).isEqualTo("ABANDONED");
        index.scan(tree("x"));
        assertThat(state(raw, stuck)).isEqualTo("ABANDONED");
        assertThat(raw.queryLong("SELECT finished_at FROM ${prefix}scans WHERE id = " + stuck)).isEqualTo(started);
    }
}
