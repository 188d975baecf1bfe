package io.fsindex.innodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fsindex.api.FileEntry;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.Dialect;
import io.fsindex.testkit.PausingWalker;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What InnoDB does differently from SQLite, shown on a real server: byte-exact names under MySQL's collations, ids
 * that survive a restart unreused, the 15-level cascade limit, READ COMMITTED re-reads, the locking parent guard,
 * deadlock retries and affected-row counts. Each test names the line of the dialect it guards; each would fail if
 * that line were taken out. Subclasses say which engine.
 */
public abstract class InnoDbBehaviourTest {
    @TempDir
    protected Path tmp;

    protected final String prefix = TestDatabase.freshPrefix();
    private final List<FsIndex> opened = new ArrayList<>();

    protected abstract TestServer server();

    protected abstract Dialect dialect();

    @AfterEach
    void closeIndexes() {
        opened.forEach(FsIndex::close);
    }

    /** Guards openDataSource's pool options: the builder's size and registry reach the HikariCP pool. */
    @Test
    void thePoolIsSizedAndObservedAsTheBuilderSays() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "a/", "a/f.txt");
        MeterRegistry registry = new SimpleMeterRegistry();
        try (FsIndex index = server().database().builder(prefix).maxPoolSize(3).metricRegistry(registry).build()) {
            index.scan(root);
            assertThat(registry.get("hikaricp.connections.max").tag("pool", "fsindex-" + dialect().name()).gauge()
                    .value()).isEqualTo(3);
        }
    }

    /** Deleted rows go at the end of the scan (no orphan retention): these tests are about the engine's deletes. */
    protected FsIndex openIndex() {
        FsIndex index = server().database().builder(prefix).orphanRetention(java.time.Duration.ZERO).build();
        opened.add(index);
        return index;
    }

    protected Path tree(String... paths) throws IOException {
        Path root = tmp.resolve("tree");
        Files.createDirectories(root);
        Trees.create(root, paths);
        return root.toRealPath();
    }

    /** Guards the VARBINARY name column: the engines' default and PAD SPACE collations would merge these. */
    @Test
    void namesEqualUnderTheDefaultCollationsAreDistinctRows() throws IOException {
        String[] names = {"a", "A", "\u00e1", "a ", "a  ", "\u00c1", "ss", "\u00df", "e\u0301", "\u00e9", "fi",
                "\ufb01", "\uff41", "a\u00a0"};
        Path root = tree();
        for (String n : names) {
            Files.writeString(root.resolve(n), n);
        }
        FsIndex index = openIndex();
        index.scan(root);

        assertThat(index.children(root)).extracting(FileEntry::name).containsExactlyInAnyOrder(names);
        for (String n : names) {
            FileEntry e = index.lookup(root.resolve(n)).orElseThrow();
            assertThat(e.name()).isEqualTo(n);
            assertThat(e.size()).as(n).isEqualTo(n.getBytes(StandardCharsets.UTF_8).length);
        }
        assertThat(index.scan(root).added()).isZero();
    }

    /**
     * Guards the schema's BIGINT AUTO_INCREMENT ids on InnoDB, whose counter MySQL 8.0 and MariaDB 10.2.4+ persist:
     * before that a restart recomputed it as MAX(id) + 1 and handed the deleted rows' ids out again.
     */
    @Test
    void idsAreNeverReusedAcrossAServerRestart() throws Exception {
        Path root = tree("a/", "a/1", "a/2", "a/3");
        FsIndex index = openIndex();
        index.scan(root);
        long newest = maxFileId();
        Trees.delete(root.resolve("a"));
        assertThat(index.scan(root).deleted()).isEqualTo(4);
        assertThat(maxFileId()).as("the newest rows are gone").isLessThan(newest);
        index.close();

        server().restart();

        FsIndex reopened = openIndex();
        Trees.create(root, "b/", "b/1");
        reopened.scan(root);
        assertThat(reopened.lookup(root.resolve("b")).orElseThrow().id()).isGreaterThan(newest);
        assertThat(reopened.lookup(root.resolve("b/1")).orElseThrow().id()).isGreaterThan(newest);
    }

    /**
     * Guards the deletion of deep subtrees in bands from the bottom (one cascading delete fails here: InnoDB cascades
     * stop at 15 levels), and the raised recursion limit of the pool (both engines stop at 1000 levels by default).
     */
    @Test
    void aSubtreeDeeperThanTheCascadeAndRecursionLimitsIsSwept() throws IOException {
        int depth = 1100;
        String deep = "d/".repeat(depth);
        Path root = tree(deep, deep + "leaf.txt", "keep.txt");
        FsIndex index = openIndex();
        index.scan(root);

        Trees.delete(root.resolve("d"));
        ScanResult r = index.scan(root);

        assertThat(r.deleted()).isEqualTo(depth + 1);
        assertThat(index.children(root)).extracting(FileEntry::name).containsExactly("keep.txt");
        assertThat(countFiles()).as("no orphan left: just the trunk, the root and keep.txt")
                .isEqualTo(root.getNameCount() + 2);
    }

    /**
     * Guards READ COMMITTED in {@code prepare}: at REPEATABLE READ the re-read after the no-op upsert of "/" reads
     * the snapshot taken before the newer scan committed "/", finds nothing, and the older scan gives up.
     */
    @Test
    void aReReadAfterANoOpUpsertSeesTheRowAnotherScanCommittedMeanwhile() throws Exception {
        Path root = tree("f.txt");
        FsIndex index = openIndex();
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseBeforeFirstStat();
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused();

        try (Connection newer = server().connect(); Connection observer = server().connect()) {
            newer.setAutoCommit(false);
            long newerScan = insertScan(newer);
            try (Statement s = newer.createStatement()) {
                s.executeUpdate("INSERT INTO " + prefix + "files (parent, name, kind, scan_id)"
                        + " VALUES (NULL, '/', 'DIRECTORY', " + newerScan + ")");
            }
            pause.release();
            awaitLockWait(observer, "files"); // the older scan's upsert of "/" waits for the newer scan's row
            newer.commit();
        }

        ScanResult r = older.await();
        assertThat(r.added()).as("the older scan went on below the row the newer one wrote").isPositive();
        assertThat(index.lookup(root.resolve("f.txt"))).isPresent();
    }

    /**
     * Guards the shared lock in the upsert's parent guard: at READ COMMITTED a plain read would see the claim's
     * old, committed listed_by and insert new.txt under a directory a newer scan has already claimed and marked.
     */
    @Test
    void anOlderScansInsertWaitsForANewerScansUncommittedClaimAndGivesWay() throws Exception {
        // d holds nothing else, so the older scan's first statement under d is the insert of new.txt: an upsert of
        // an existing row would wait for the claim's stale mark instead and only then read the guard.
        Path root = tree("d/");
        FsIndex index = openIndex();
        index.scan(root);
        long d = index.lookup(root.resolve("d")).orElseThrow().id();
        Trees.create(root, "d/new.txt");
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(root.resolve("d"));
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused(); // the older scan has claimed d and read new.txt from disk, but not written it yet

        try (Connection newer = server().connect(); Connection observer = server().connect()) {
            newer.setAutoCommit(false);
            long newerScan = insertScan(newer);
            try (Statement s = newer.createStatement()) {
                // exactly what claimDirectory does for a newer scan
                assertThat(s.executeUpdate("UPDATE " + prefix + "files SET listed_by = " + newerScan
                        + " WHERE id = " + d + " AND listed_by <= " + newerScan)).isEqualTo(1);
                s.executeUpdate("UPDATE " + prefix + "files SET stale = 1, scan_id = " + newerScan
                        + " WHERE parent = " + d + " AND scan_id < " + newerScan);
            }
            pause.release();
            awaitLockWait(observer, "files"); // the older scan's guard waits for the claim
            newer.commit();
        }

        older.await();
        assertThat(index.lookup(root.resolve("d/new.txt"))).as("written under a directory a newer scan owns")
                .isEmpty();
    }

    /**
     * Guards {@code isRetryable} for deadlocks (1213, SQLState 40001): the scan's transaction is InnoDB's deadlock victim (it has done less
     * work than the other one) and the scan still completes, because its transaction is run again.
     */
    @Test
    void aScanChosenAsDeadlockVictimIsRetriedAndCompletes() throws Exception {
        Path root = tree("f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long top;
        long belowTop;
        try (Connection setup = server().connect(); Statement s = setup.createStatement()) {
            top = singleLong(s, "SELECT id FROM " + prefix + "files WHERE parent IS NULL");
            belowTop = singleLong(s, "SELECT id FROM " + prefix + "files WHERE parent = " + top);
            s.execute("CREATE TABLE " + prefix + "ballast (id INT PRIMARY KEY, v INT NOT NULL) ENGINE = InnoDB");
            s.execute("INSERT INTO " + prefix + "ballast (id, v) WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL"
                    + " SELECT i + 1 FROM n WHERE i < 900) SELECT i, 0 FROM n");
        }

        try (Connection other = server().connect(); Connection observer = server().connect();
             Statement s = other.createStatement()) {
            other.setAutoCommit(false);
            s.executeUpdate("UPDATE " + prefix + "ballast SET v = v + 1"); // heavy, so InnoDB spares it
            s.executeUpdate("UPDATE " + prefix + "files SET size = size WHERE id = " + belowTop);
            // The rescan locks "/" first, then waits for the row below it, which `other` holds.
            ScanSession scan = index.startScan(root);
            awaitLockWait(observer, "files");
            // Now `other` waits for "/": a deadlock. If the scan were not the victim, this would throw.
            CompletableFuture<Integer> closesTheCycle = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.executeUpdate("UPDATE " + prefix + "files SET size = size WHERE id = " + top);
                } catch (SQLException e) {
                    throw new AssertionError("the scan, not the heavier transaction, should be the victim", e);
                }
            });
            closesTheCycle.get(60, TimeUnit.SECONDS);
            other.commit();

            ScanResult r = scan.await();
            assertThat(r.isClean()).isTrue();
            assertThat(r.unchanged()).isEqualTo(2);
        }
    }

    /** Guards {@code isRetryable} for 1205: a lock wait timeout leaves the transaction open to be run again. */
    @Test
    void aLockWaitTimeoutIsRetryable() throws Exception {
        try (Connection holder = server().connect(); Connection waiter = server().connect();
             Statement h = holder.createStatement(); Statement w = waiter.createStatement()) {
            h.execute("CREATE TABLE " + prefix + "locked (id INT PRIMARY KEY) ENGINE = InnoDB");
            h.execute("INSERT INTO " + prefix + "locked VALUES (1)");
            holder.setAutoCommit(false);
            h.executeUpdate("UPDATE " + prefix + "locked SET id = 1 WHERE id = 1");
            w.execute("SET SESSION innodb_lock_wait_timeout = 1");
            waiter.setAutoCommit(false);
            assertThatThrownBy(() -> w.executeUpdate("UPDATE " + prefix + "locked SET id = 1 WHERE id = 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1205);
                        assertThat(dialect().errors().isRetryable(e)).isTrue();
                    });
            holder.rollback();
            waiter.rollback();
        }
    }

    /**
     * Guards {@code useAffectedRows=true} in the data source: the older scan's upsert of sub, which the newer
     * partial scan wrote, changes nothing and must count as skipped. With the drivers' default (found rows) the
     * server reports 1 for it and the scan would count it as unchanged.
     */
    @Test
    void aRowANewerScanWroteCountsAsSkippedNotUnchanged() throws Exception {
        Path root = tree("sub/", "sub/in.txt", "f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(root);
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused();

        index.scan(root.resolve("sub"));
        pause.release();
        ScanResult r = older.await();

        assertThat(r.unchanged()).as("the root and f.txt").isEqualTo(2);
        assertThat(r.skipped()).isPositive();
        assertThat(r.added() + r.modified() + r.deleted()).isZero();
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * Guards {@code SqlFileSink.heldChanges}: a transaction holds all the changes of a listing of a few thousand new
     * entries and writes every row before it waits for the change feed's head, which another transaction holds, so
     * scans take turns only for their feed rows and commit. With the limit at 2,048 (as it was), MariaDB's
     * transaction took the head after 2,048 returned rows and waited with the rest unwritten.
     */
    @Test
    void aListingsRowsAreAllWrittenBeforeTheScanWaitsForTheFeedHead() throws Exception {
        Path root = tree("d/");
        FsIndex index = openIndex();
        index.scan(root);
        Path d = root.resolve("d");
        int files = 3_000;
        for (int i = 0; i < files; i++) {
            Files.createFile(d.resolve("f" + i));
        }
        long dir = index.lookup(d).orElseThrow().id();
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(d);
        ScanSession scan = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused(); // the root's listing (d modified) is committed; d's is read but not written

        try (Connection head = server().connect(); Connection observer = server().connect()) {
            head.setAutoCommit(false);
            try (Statement s = head.createStatement()) {
                s.executeUpdate("UPDATE " + prefix + "feed SET last_seq = last_seq WHERE id = 1");
            }
            pause.release();
            awaitLockWait(observer, "feed");
            observer.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            try (Statement s = observer.createStatement()) {
                assertThat(singleLong(s, "SELECT COUNT(*) FROM " + prefix + "files WHERE parent = " + dir))
                        .as("rows the waiting transaction wrote").isEqualTo(files);
            }
            head.commit();
        }
        assertThat(scan.await().added()).isEqualTo(files);
    }

    private long insertScan(Connection c) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + prefix + "scans (root, state, started_at)"
                + " VALUES ('/', 'RUNNING', 0)", Statement.RETURN_GENERATED_KEYS)) {
            p.executeUpdate();
            try (ResultSet keys = p.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** Waits until some transaction is blocked on a row lock in a statement on this test's {@code table}. */
    private void awaitLockWait(Connection observer, String table) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (PreparedStatement p = observer.prepareStatement("SELECT COUNT(*) FROM information_schema.innodb_trx"
                + " WHERE trx_state = 'LOCK WAIT' AND trx_query LIKE ?")) {
            p.setString(1, "%" + prefix + table + "%");
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                // Polling the server's lock table, as there is nothing to latch on; InnoDB refreshes what
                // innodb_trx shows only after 100 ms without a read, so polling faster would never see a change.
                Thread.sleep(250);
            }
        }
        StringBuilder seen = new StringBuilder();
        try (Statement s = observer.createStatement();
             ResultSet rs = s.executeQuery("SELECT state, info FROM information_schema.processlist"
                     + " WHERE info IS NOT NULL")) {
            while (rs.next()) {
                seen.append("\n  ").append(rs.getString(1)).append(": ").append(rs.getString(2));
            }
        }
        fail("no transaction on " + prefix + table + " started waiting for a lock; running statements:" + seen);
    }

    private long maxFileId() throws SQLException {
        try (Connection c = server().connect(); Statement s = c.createStatement()) {
            return singleLong(s, "SELECT MAX(id) FROM " + prefix + "files");
        }
    }

    protected long countFiles() {
        try (Connection c = server().connect(); Statement s = c.createStatement()) {
            return singleLong(s, "SELECT COUNT(*) FROM " + prefix + "files");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    protected static long singleLong(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getLong(1);
        }
    }
}
