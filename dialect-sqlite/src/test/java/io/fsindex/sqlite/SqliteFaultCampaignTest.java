package io.fsindex.sqlite;

import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.CampaignChecks;
import io.fsindex.testkit.FaultCampaign;
import io.fsindex.testkit.FaultCampaignConformanceTest;
import io.fsindex.testkit.FeedAudit;
import io.fsindex.testkit.RawIndex;
import io.fsindex.testkit.SeededChurn;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault campaign on SQLite: SIGKILLed scanning processes and processes under churn (the testkit's), and the
 * faults of a database file: the disk filling up mid-scan, and another connection holding an exclusive lock on the
 * file for a long time.
 */
class SqliteFaultCampaignTest extends FaultCampaignConformanceTest {
    private static final Duration RETRY_TIMEOUT = Duration.ofSeconds(1);

    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("faults.db"), null, null);
    }

    /**
     * The disk fills up mid-scan: the database lives on a small tmpfs, filled up to a random slack after each clean
     * scan, and new entries need more room than is left. The scan fails with a clear error; nothing the index held is
     * lost, the file stays intact; once the space returns, the next scan of the same index is right. Where the
     * environment cannot mount a tmpfs (no CAP_SYS_ADMIN), SQLite's own page limit ({@code max_page_count}) stands in
     * for the full disk, and the campaign's report says so.
     */
    @Test
    void aFullDiskFailsTheScanClearlyAndLosesNothing() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "out of disk space", 2);
        Random random = campaign.random("slack");
        SeededChurn[] churn = new SeededChurn[1];
        Path root = campaignTree(campaign, churn);
        Path disk = Files.createDirectories(tmp.resolve("small-disk"));
        String mountFailure = mount(disk, 16 * 1024);
        if (mountFailure != null) {
            campaign.note("no size-limited tmpfs here (" + mountFailure + "): SQLite's PRAGMA max_page_count stands in"
                    + " for the full disk");
        }
        String prefix = TestDatabase.freshPrefix();
        TestDatabase db = new TestDatabase("jdbc:sqlite:" + disk.resolve("index.db"), null, null);
        RawIndex raw = new RawIndex(db, prefix);
        Path filler = disk.resolve("filler");
        int refused = 0;
        List<String> messages = new ArrayList<>();
        FsIndex index = db.builder(prefix).scanLease(LEASE).build();
        try (IndexReader reader = db.builder(prefix).buildReader(); FeedAudit feed = new FeedAudit(reader)) {
            index.scan(root);
            for (int trial = 1; trial <= campaign.trials(); trial++) {
                churn[0].populate(campaign.entries());      // more rows than the space left can hold
                churn[0].change(random.nextInt(40));
                Map<String, String> before = Trees.inIndex(index, root);
                long slack = random.nextInt(64 * 1024);
                FsIndex full = mountFailure == null ? index
                        : pageLimited(db, prefix, raw, slack);
                if (mountFailure == null) {
                    fill(filler, slack);
                }
                List<String> problems = new ArrayList<>();
                try {
                    full.scan(root);
                    campaign.note("trial " + trial + ": the scan fitted in the space left");
                } catch (ScanFailedException e) {
                    refused++;
                    messages.add(e.getMessage());
                    String message = e.getMessage().toLowerCase(Locale.ROOT);
                    if (CampaignChecks.internalError(e) != null) {
                        problems.add("the scan failed with an internal error: " + CampaignChecks.internalError(e));
                    } else if (!message.contains("full") && !message.contains("space")) {
                        problems.add("the scan's error does not say the disk is full: " + e.getMessage());
                    }
                } finally {
                    if (full != index) {
                        full.close();
                    }
                    Files.deleteIfExists(filler);             // the space returns
                }
                problems.addAll(integrity(db));
                Map<String, String> after = Trees.inIndex(index, root);
                List<String> lost = before.keySet().stream().filter(p -> !after.containsKey(p)).limit(5).toList();
                if (!lost.isEmpty()) {
                    problems.add("the failed scan lost entries, e.g. " + lost);
                }
                problems.addAll(cleanScanAndCheck(index, root, raw, feed));
                report(campaign, trial, problems);
            }
            report(campaign, campaign.trials(), finalChecks(index, root, raw, feed));
            campaign.note(refused + " of " + campaign.trials() + " scans were refused for want of space: "
                    + messages.stream().distinct().limit(3).toList());
        } finally {
            index.close();
            if (mountFailure == null && run("umount", disk.toString()) != null) {
                run("umount", "-l", disk.toString()); // detached at once, gone once nothing holds it open
            }
        }
        campaign.finish(campaign.trials());
    }

    /** Mounts a tmpfs of {@code kib} KiB on {@code dir}; null if that worked, else why not. */
    private static String mount(Path dir, int kib) {
        try {
            return run("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", dir.toString());
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** Runs a command; null if it succeeded, else its output. */
    private static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.waitFor() == 0 ? null : String.join(" ", command) + ": " + out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Fills the filesystem of {@code filler} until about {@code slack} bytes are left. */
    private static void fill(Path filler, long slack) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (Files.getFileStore(filler).getUsableSpace() > slack + block.length) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            // no space left: as full as it gets
        }
    }

    /** A second index on the same file whose connections may not grow it by more than about {@code slack} bytes. */
    private static FsIndex pageLimited(TestDatabase db, String prefix, RawIndex raw, long slack) throws SQLException {
        long pages = raw.queryLong("PRAGMA page_count") + slack / raw.queryLong("PRAGMA page_size");
        return FsIndex.builder().jdbcUrl(db.jdbcUrl() + "?max_page_count=" + pages).tablePrefix(prefix)
                .scanLease(LEASE).build();
    }

    /** SQLite's own check of the file: empty if it is intact. */
    private static List<String> integrity(TestDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
            rs.next();
            String result = rs.getString(1);
            return "ok".equals(result) ? List.of() : List.of("the database file is damaged: " + result);
        }
    }

    /**
     * Another connection holds an exclusive lock on the file, from before the scan or from a random point in it,
     * either SQLite's write lock ({@code BEGIN EXCLUSIVE}, readers go on) or the whole file
     * ({@code PRAGMA locking_mode = EXCLUSIVE} and a write: readers wait too), for half the index's retry timeout (odd
     * trials) or one and a half times it (even trials). The scan waits and completes, or fails with an error saying
     * the database is busy or locked; once the lock is gone, the next scan is right.
     */
    @Test
    void aLongExclusiveLockMakesTheScanWaitOrFailClearly() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "a long exclusive lock on the database file", 4);
        Random random = campaign.random("locks");
        SeededChurn[] churn = new SeededChurn[1];
        Path root = campaignTree(campaign, churn);
        FsIndex index = openIndex(b -> b.scanLease(LEASE).retryTimeout(RETRY_TIMEOUT));
        RawIndex raw = new RawIndex(database(), prefix());
        index.scan(root);
        int waited = 0;
        int refused = 0;
        List<String> messages = new ArrayList<>();
        try (IndexReader reader = database().builder(prefix()).buildReader(); FeedAudit feed = new FeedAudit(reader)) {
            for (int trial = 1; trial <= campaign.trials(); trial++) {
                churn[0].change(1 + random.nextInt(40));
                boolean wholeFile = random.nextBoolean();
                boolean beforeTheScan = random.nextBoolean();
                long hold = RETRY_TIMEOUT.toMillis() * (trial % 2 == 1 ? 1 : 3) / 2;
                long delay = beforeTheScan ? 0 : random.nextInt(200);
                List<String> problems = new ArrayList<>();
                CountDownLatch locked = new CountDownLatch(1);
                CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> holdLock(wholeFile, hold, locked));
                try {
                    if (beforeTheScan) {
                        locked.await(1, TimeUnit.MINUTES);
                    }
                    ScanSession scan = index.startScan(root);
                    Thread.sleep(delay); // the random point: how far the scan got by then
                    scan.await();
                    waited++;
                } catch (ScanFailedException e) {
                    refused++;
                    messages.add(e.getMessage());
                    String message = e.getMessage().toLowerCase(Locale.ROOT);
                    if (CampaignChecks.internalError(e) != null) {
                        problems.add("the scan failed with an internal error: " + CampaignChecks.internalError(e));
                    } else if (!message.contains("busy") && !message.contains("locked")) {
                        problems.add("the scan's error does not say the database is busy: " + e.getMessage());
                    }
                }
                holder.get(1, TimeUnit.MINUTES);
                problems.addAll(cleanScanAndCheck(index, root, raw, feed));
                report(campaign, trial, problems);
            }
            report(campaign, campaign.trials(), finalChecks(index, root, raw, feed));
            campaign.note(waited + " scans waited for the lock and completed, " + refused
                    + " failed saying the database was busy or locked: " + messages.stream().distinct().limit(3).toList());
        }
        campaign.finish(campaign.trials());
    }

    /** Takes the lock on a connection of its own, holds it for {@code millis}, and lets it go. */
    private void holdLock(boolean wholeFile, long millis, CountDownLatch locked) {
        try (Connection c = DriverManager.getConnection(database().jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 60000");
            if (wholeFile) {
                s.execute("PRAGMA locking_mode = EXCLUSIVE");
            }
            s.execute("BEGIN EXCLUSIVE");
            if (wholeFile) {
                s.execute("CREATE TABLE IF NOT EXISTS lock_holder (x INTEGER)");
                s.execute("INSERT INTO lock_holder VALUES (1)");
            }
            locked.countDown();
            Thread.sleep(millis);
            s.execute("COMMIT");
            if (wholeFile) {
                s.execute("PRAGMA locking_mode = NORMAL");
                s.executeQuery("SELECT count(*) FROM lock_holder").close(); // gives the file lock up
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the lock holder failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
