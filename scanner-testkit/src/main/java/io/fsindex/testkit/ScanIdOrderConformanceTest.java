package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.ScanIdAllocation;
import io.fsindex.core.SchemaScripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scan ids in start order, the rule "a newer scan always wins" stands on, against an engine allocator that hands them
 * out of order. Two indexes on the same tables stand for two nodes (or two pooled connections): each keeps one
 * connection, so an engine that caches ids per connection (a PostgreSQL sequence with {@code CACHE 20}, as
 * YugabyteDB's are by default) gives the scan that starts later the smaller id. A dialect's test says in
 * {@link #database()} which database to use and in {@link #cacheEngineScanIds} how its engine's allocator is made to
 * cache ids, if it can be.
 */
public abstract class ScanIdOrderConformanceTest extends IndexTest {

    private final List<PausingWalker> walkers = new ArrayList<>();

    /**
     * Makes the engine's own allocator of scan ids for the tables of {@code raw} hand out ids from a cache per
     * connection, as engines that distribute their sequences do; returns false where this engine has no such mode
     * (its single counter keeps ids in the order the inserts run), saying why in the subclass.
     */
    protected abstract boolean cacheEngineScanIds(RawIndex raw) throws SQLException;

    @AfterEach
    void releaseScans() {
        walkers.forEach(PausingWalker::releaseAll);
    }

    // Protocol: ids grow in start order (the counter row), whatever the engine's allocator does; so an older scan's
    // listing, held across a change and a newer scan, applies nothing.
    @Test
    void orderedIdsKeepTheNewerScanWinningWhereTheEngineHandsIdsOutOfOrder() throws Exception {
        Race race = race(ScanIdAllocation.ORDERED);

        assertThat(race.newer.scanId()).as("the scan that started later has the larger id")
                .isGreaterThan(race.olderId);
        assertThat(sizeInIndex(race)).as("the newer scan's view of f.txt").isEqualTo(NEW_SIZE);
        assertThat(Trees.inIndex(race.nodeA, race.root)).isEqualTo(Trees.onDisk(race.root));
    }

    // The same race on the engine's own allocator: where it caches ids per connection, the older scan gets the larger
    // id and its stale listing wins (this is what the ordered allocation is for); where it cannot, ids keep start
    // order and the newer scan wins as above.
    @Test
    void theEngineAllocatorDecidesWhetherTheOlderScanWins() throws Exception {
        Race race = race(ScanIdAllocation.NATIVE);

        if (race.engineCaches) {
            assertThat(race.olderId).as("a per-connection cache hands the older scan the larger id")
                    .isGreaterThan(race.newer.scanId());
            assertThat(sizeInIndex(race)).as("the older scan's stale listing won").isEqualTo(OLD_SIZE);
        } else {
            assertThat(race.newer.scanId()).isGreaterThan(race.olderId);
            assertThat(sizeInIndex(race)).isEqualTo(NEW_SIZE);
            assertThat(Trees.inIndex(race.nodeA, race.root)).isEqualTo(Trees.onDisk(race.root));
        }
    }

    // Schema version 6 starts the counter at the largest scan id so far, so no id is handed out twice.
    @Test
    void aVersion5IndexIsUpgradedAndItsCounterStartsPastItsScans() throws Exception {
        RawIndex raw = indexAtSchemaVersion(5);
        raw.update("INSERT INTO ${prefix}scans (id, root, state, started_at, heartbeat_at) VALUES (40, '/old',"
                + " 'COMPLETED', 1, 1)");

        FsIndex index = reopenIndex();
        assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaScripts.currentVersion());
        assertThat(raw.queryLong("SELECT last_id FROM ${prefix}scan_ids")).isEqualTo(40);
        assertThat(index.scan(tree("a.txt")).scanId()).isEqualTo(41);
    }

    // Going from the engine's allocator to the counter never reuses an id, even though the counter has not seen the
    // ids the engine handed out.
    @Test
    void orderedIdsAfterEngineIdsContinuePastThem() throws Exception {
        Path root = tree("a.txt");
        FsIndex nativeIds = openIndex(b -> b.scanIdAllocation(ScanIdAllocation.NATIVE));
        nativeIds.scan(root);
        long last = nativeIds.scan(root).scanId();
        nativeIds.close();

        FsIndex ordered = reopenIndex();
        assertThat(ordered.scan(root).scanId()).isEqualTo(last + 1);
        assertThat(ordered.scan(root).scanId()).isEqualTo(last + 2);
    }

    private static final int OLD_SIZE = 3;
    private static final int NEW_SIZE = 11;

    /**
     * Two indexes ("nodes") on the same tables, each with one pooled connection; each scans once so that a caching
     * allocator hands each connection a block of ids. Then the older scan (on node B) stops holding d's listing,
     * f.txt changes, the newer scan (on node A) runs to its end, and the older scan is let go.
     */
    private Race race(ScanIdAllocation allocation) throws Exception {
        Path root = tree("d/", "d/f.txt");
        Files.writeString(root.resolve("d/f.txt"), "x".repeat(OLD_SIZE));
        FsIndex nodeA = openIndex(b -> b.scanIdAllocation(allocation).maxPoolSize(1));
        FsIndex nodeB = track(database().builder(prefix()).scanIdAllocation(allocation).maxPoolSize(1).build());
        boolean caches = cacheEngineScanIds(new RawIndex(database(), prefix()));
        nodeA.scan(root);
        nodeB.scan(root);

        PausingWalker walker = new PausingWalker();
        walkers.add(walker);
        PausingWalker.Pause afterD = walker.pauseAfterListing(root.resolve("d"));
        ScanSession older = nodeB.startScan(root, ScanOptions.defaults().withWalker(walker));
        afterD.awaitPaused();                      // holds d's listing: f.txt at its old size
        write(root.resolve("d/f.txt"), NEW_SIZE);
        ScanResult newer = nodeA.scan(root);       // starts after the older scan's start returned
        afterD.release();
        older.await();
        return new Race(root, nodeA, older.scanId(), newer, caches);
    }

    private record Race(Path root, FsIndex nodeA, long olderId, ScanResult newer, boolean engineCaches) {
    }

    private static long sizeInIndex(Race race) {
        return race.nodeA.lookup(race.root.resolve("d/f.txt")).orElseThrow().size();
    }

    private static void write(Path file, int size) throws IOException {
        Files.writeString(file, "x".repeat(size));
    }
}
