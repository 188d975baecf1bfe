package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.PausingWalker;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's own concurrency hazards under READ COMMITTED, each staged deterministically on the real server: one
 * session holds a transaction open at an exact point while another runs into it, and the test waits until the server
 * reports the second one waiting for a lock. Each test fails if the guarantee it names does not hold; the class
 * comment of {@link PostgresDialect} gives the reasoning.
 */
class PostgresConcurrencyTest {
    private final PostgresDialect dialect = new PostgresDialect();
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private TestDatabase db;
    private FsTables t;
    private FsIndex index;
    /** Watches the other sessions from outside their transactions (a transaction sees one pg_stat_activity). */
    private PgSession monitor;

    @TempDir
    Path tmp;

    @BeforeEach
    void createSchema() {
        db = PostgresTestServer.database();
        String prefix = TestDatabase.freshPrefix();
        t = new FsTables(prefix);
        index = db.builder(prefix).build();
        try {
            monitor = session();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void closeEverything() throws Exception {
        executor.shutdownNow();
        for (AutoCloseable c : opened) {
            c.close();
        }
        index.close();
    }

    private PgSession session() throws SQLException {
        PgSession s = new PgSession(db, t);
        opened.add(s);
        return s;
    }

    private static Map<String, Object> entry(long parent, String name, String kind, long scan) {
        Map<String, Object> v = new HashMap<>();
        v.put("parent", parent);
        v.put("name", name);
        v.put("kind", kind);
        v.put("size", 0L);
        v.put("mtime", 0L);
        v.put("link", null);
        v.put("key", 31L * parent + name.hashCode());    // any identity: these statements never look at it
        v.put("scan", scan);
        return v;
    }

    /** A top-level directory row D written and claimed (listed) by {@code scan}; returns its id. */
    private long listedDirectory(PgSession s, long scan) throws SQLException {
        Map<String, Object> v = entry(0, "D", "DIRECTORY", scan);
        v.remove("parent");
        s.run(dialect.statements().upsertTopLevel(t), v);
        long id = s.queryLong("SELECT id FROM " + t.filesName() + " WHERE parent IS NULL AND name = 'D'");
        assertThat(s.run(dialect.statements().claimDirectory(t), Map.of("dir", id, "scan", scan))).isEqualTo(1);
        return id;
    }

    private long count(PgSession s, String where) throws SQLException {
        return s.queryLong("SELECT count(*) FROM " + t.filesName() + " WHERE " + where);
    }

    /** Guards the listed_by gate of the conditional insert: an older scan must not add a child under a directory a
     *  newer scan is listing, or the newer scan never marks it and the row outlives the file. */
    @Test
    void anOlderInsertWaitsForANewerClaimOfItsParentAndThenInsertsNothing() throws Exception {
        PgSession older = session();
        PgSession newer = session();
        long s1 = older.newScan();
        long s2 = older.newScan();
        long d = listedDirectory(older, s1);

        newer.begin();
        assertThat(newer.run(dialect.statements().claimDirectory(t), Map.of("dir", d, "scan", s2))).isEqualTo(1);
        newer.run(markChildrenStale(t), Map.of("dir", d, "scan", s2));

        older.begin();
        Future<Integer> insert = executor.submit(() -> older.run(dialect.statements().upsertChild(t), entry(d, "c", "FILE", s1)));
        assertThat(monitor.awaitLockWait(older.pid, insert))
                .as("the older scan's insert must wait for the newer scan's claim of the parent").isTrue();
        newer.commit();

        assertThat(insert.get(30, TimeUnit.SECONDS)).as("rows the older scan inserted").isZero();
        older.commit();
        assertThat(count(older, "parent = " + d)).isZero();
    }

    /** Guards "claim + mark in one transaction": a newer scan's mark must cover a child an older scan inserted
     *  concurrently, or that child is never swept although the newer scan did not see it. */
    @Test
    void aNewerClaimWaitsForAnOlderInsertUnderTheDirectoryAndThenMarksTheNewChildStale() throws Exception {
        PgSession older = session();
        PgSession newer = session();
        long s1 = older.newScan();
        long s2 = older.newScan();
        long d = listedDirectory(older, s1);

        older.begin();
        assertThat(older.run(dialect.statements().upsertChild(t), entry(d, "c", "FILE", s1))).isEqualTo(1);

        newer.begin();
        Future<Integer> claimAndMark = executor.submit(() -> {
            int claimed = newer.run(dialect.statements().claimDirectory(t), Map.of("dir", d, "scan", s2));
            newer.run(markChildrenStale(t), Map.of("dir", d, "scan", s2));
            newer.commit();
            return claimed;
        });
        assertThat(monitor.awaitLockWait(newer.pid, claimAndMark))
                .as("the newer scan's claim must wait for the older scan's insert under the directory").isTrue();
        older.commit();

        assertThat(claimAndMark.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(count(older, "parent = " + d + " AND name = 'c' AND stale = 1 AND scan_id = " + s2))
                .as("the concurrently inserted child is marked stale by the newer scan").isEqualTo(1);
    }

    /** A directory deleted by a newer scan's sweep while an older scan inserts under it: the insert skips (the
     *  subtree is gone) instead of failing on the foreign key, which would abort the whole directory's batch. */
    @Test
    void aBatchUnderADirectoryBeingSweptWaitsAndSkipsInsteadOfFailingOnTheForeignKey() throws Exception {
        PgSession older = session();
        PgSession newer = session();
        long s1 = older.newScan();
        long s2 = older.newScan();
        long d = listedDirectory(older, s1);
        older.execute("UPDATE " + t.filesName() + " SET stale = 1, scan_id = " + s2 + " WHERE id = " + d);

        newer.begin();
        // The purge's delete of a gone subtree's top row, as any sweeping scan runs it.
        assertThat(newer.run(org.jooq.impl.DSL.deleteFrom(t.files).where(t.stale.eq(org.jooq.impl.DSL.inline(1)))
                .and(t.scanId.eq(org.jooq.impl.DSL.param("scan", Long.class))), Map.of("scan", s2))).isEqualTo(1);

        older.begin();
        Future<int[]> batch = executor.submit(() -> older.runBatch(dialect.statements().upsertChild(t),
                List.of(entry(d, "c1", "FILE", s1), entry(d, "c2", "DIRECTORY", s1))));
        assertThat(monitor.awaitLockWait(older.pid, batch))
                .as("the insert must wait for the sweep that deletes its parent").isTrue();
        newer.commit();

        assertThat(batch.get(30, TimeUnit.SECONDS)).containsExactly(0, 0);
        older.commit();
        assertThat(count(older, "true")).isZero();
    }

    /** Two scans inserting the same new row: the second waits on the unique arbiter, then takes the update path
     *  with its scan_id check; neither fails with a unique violation. */
    @Test
    void twoScansInsertingTheSameNewRowWaitAndTheNewerWinsWithoutAUniqueViolation() throws Exception {
        PgSession first = session();
        PgSession second = session();
        long s1 = first.newScan();
        long s2 = first.newScan();
        long s3 = first.newScan();
        long d = listedDirectory(first, s1);

        // a newer scan waits for an older one's insert and then overwrites it
        first.begin();
        assertThat(first.run(dialect.statements().upsertChild(t), entry(d, "c", "FILE", s2))).isEqualTo(1);
        second.begin();
        Future<Integer> newerUpsert = executor.submit(() -> second.run(dialect.statements().upsertChild(t),
                entry(d, "c", "DIRECTORY", s3)));
        assertThat(monitor.awaitLockWait(second.pid, newerUpsert)).isTrue();
        first.commit();
        assertThat(newerUpsert.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        second.commit();

        // an older scan waits for a newer one's insert and then leaves it alone
        first.begin();
        assertThat(first.run(dialect.statements().upsertChild(t), entry(d, "e", "FILE", s3))).isEqualTo(1);
        second.begin();
        Future<Integer> olderUpsert = executor.submit(() -> second.run(dialect.statements().upsertChild(t),
                entry(d, "e", "DIRECTORY", s2)));
        assertThat(monitor.awaitLockWait(second.pid, olderUpsert)).isTrue();
        first.commit();
        assertThat(olderUpsert.get(30, TimeUnit.SECONDS)).isZero();
        second.commit();

        assertThat(count(first, "name = 'c' AND kind = 'DIRECTORY' AND scan_id = " + s3)).isEqualTo(1);
        assertThat(count(first, "name = 'e' AND kind = 'FILE' AND scan_id = " + s3)).isEqualTo(1);
    }

    /**
     * Guards the claim of listed subdirectories: a scan must claim (and so descend into) every subdirectory it
     * listed that it may claim, even when the row appeared, written by a newer scan, after the scan first read the
     * directory's children. Under READ COMMITTED that first read does not see a row committed later, so the ids to
     * claim must be read after the upserts.
     */
    @Test
    void aScanDescendsIntoASubdirectoryANewerScanInsertedWhileItWasListing() throws Exception {
        Path root = tmp.resolve("root");
        Trees.create(root, "./");
        index.scan(root);
        Trees.create(root, "e/", "e/x.txt");
        long rootId = index.lookup(root).orElseThrow().id();

        PausingWalker pausing = new PausingWalker();
        PausingWalker.Pause listed = pausing.pauseAfterListing(root.toRealPath());
        ScanSession scan = index.startScan(root, ScanOptions.defaults().withWalker(pausing));
        listed.awaitPaused();

        // A newer partial scan (of root/e/...) inserts e as part of its trunk, without claiming it.
        PgSession newer = session();
        long s2 = newer.newScan();
        assertThat(s2).isGreaterThan(scan.scanId());
        newer.begin();
        assertThat(newer.run(dialect.statements().upsertChild(t), entry(rootId, "e", "DIRECTORY", s2))).isEqualTo(1);

        listed.release();
        Future<ScanResult> result = executor.submit(() -> scan.await());
        assertThat(monitor.awaitAnyLockWaitOn(t.filesName(), result))
                .as("the scan's upsert of e must wait for the newer scan's insert").isTrue();
        newer.commit();

        result.get(30, TimeUnit.SECONDS);
        assertThat(index.lookup(root.resolve("e/x.txt"))).as("the scan listed e and recorded its child").isPresent();
    }

    /** Wraps the NIO walker and pauses the first listing of {@code dir} until released. */

    /** The stale mark of fsindex's first protocol (every child of a claimed directory), staged by hand here. */
    private static org.jooq.Query markChildrenStale(FsTables t) {
        org.jooq.Field<Long> scan = org.jooq.impl.DSL.param("scan", Long.class);
        return org.jooq.impl.DSL.update(t.files).set(t.stale, org.jooq.impl.DSL.inline(1)).set(t.scanId, scan)
                .where(t.parent.eq(org.jooq.impl.DSL.param("dir", Long.class))).and(t.scanId.lt(scan));
    }
}
