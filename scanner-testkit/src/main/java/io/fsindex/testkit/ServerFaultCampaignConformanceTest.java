package io.fsindex.testkit;

import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fault campaign's faults of server engines, on top of {@link FaultCampaignConformanceTest}'s: the scan's
 * connections killed by the server mid-scan, and the server restarted mid-scan. A dialect's test says how to mark
 * and kill connections and how to restart its server, in a few lines.
 */
public abstract class ServerFaultCampaignConformanceTest extends FaultCampaignConformanceTest {

    /** The test database, with every connection carrying {@code marker} where {@link #killSessions} can find it. */
    protected abstract TestDatabase markedDatabase(String marker) throws Exception;

    /** Kills, from another connection, every server session whose connection carries {@code marker}. */
    protected abstract void killSessions(String marker) throws Exception;

    /** A server this test may restart; the campaign restarts it mid-scan and expects it back with its data. */
    protected abstract RestartableServer restartableServer() throws Exception;

    /** A database server the campaign may stop and start again, keeping its data and its address. */
    public interface RestartableServer {
        /** The database on that server. */
        TestDatabase database();

        /** Stops the server (ending every connection) and starts it again on the same data and port. */
        void restart() throws Exception;
    }

    /**
     * The scan's connections killed by the server ({@code pg_terminate_backend}, {@code KILL}) at a random point of a
     * scan of the whole tree or a subtree, after random changes. The scan either completes or fails with a clear error
     * and records its outcome; the same index then scans again and the checks follow.
     */
    @Test
    void aScansConnectionsKilledMidScanLoseNothing() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "the scan's connection killed", 4);
        String marker = "fsindex_faults_" + ProcessHandle.current().pid();
        SeededChurn[] churn = new SeededChurn[1];
        Path root = campaignTree(campaign, churn);
        FsIndex index = openIndex(b -> b.scanLease(LEASE));
        index.scan(root);
        FsIndex marked = track(markedDatabase(marker).builder(prefix()).scanLease(LEASE).build());
        faultMidScan(campaign, index, marked, database(), prefix(), root, true, () -> killSessions(marker));
    }

    /**
     * The server restarted at a random point of a scan (its clean shutdown ends every connection). The scan fails with
     * a clear error; once the server is back, the same index scans again and the checks follow.
     */
    @Test
    void theServerRestartedMidScanLosesNothing() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "the server restarted mid-scan", 2);
        RestartableServer server = restartableServer();
        SeededChurn[] churn = new SeededChurn[1];
        Path root = campaignTree(campaign, churn);
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(server.database().builder(prefix).scanLease(LEASE).build());
        index.scan(root);
        faultMidScan(campaign, index, index, server.database(), prefix, root, false, server::restart);
    }

    /** Something that strikes a running scan. */
    private interface Fault {
        void strike() throws Exception;
    }

    /**
     * The trials of one fault: changes, a scan of the tree or a subtree through {@code faulted}, the fault at a random
     * point, then the checks. If {@code recordedAtOnce}, a struck scan must have recorded its outcome when it returns
     * (on a fresh connection if need be); otherwise (the server was down) it may stay RUNNING until its lease runs
     * out, and the final checks see it recorded ABANDONED.
     */
    private void faultMidScan(FaultCampaign campaign, FsIndex index, FsIndex faulted, TestDatabase database,
                              String prefix, Path root, boolean recordedAtOnce, Fault fault) throws Exception {
        RawIndex raw = new RawIndex(database, prefix);
        Random random = campaign.random("faults");
        SeededChurn churn = new SeededChurn(root, List.of("", SUBTREES.get(0), SUBTREES.get(1)),
                campaign.random("churn"));
        int failed = 0;
        List<String> messages = new ArrayList<>();
        try (IndexReader reader = database.builder(prefix).buildReader(); FeedAudit feed = new FeedAudit(reader)) {
            long window = timeOfAScan(faulted, root, churn);
            for (int trial = 1; trial <= campaign.trials(); trial++) {
                churn.change(1 + random.nextInt(40));
                Path scanned = random.nextInt(3) == 0 ? root.resolve(SUBTREES.get(random.nextInt(2))) : root;
                ScanSession scan;
                try {
                    scan = startAndStrike(faulted, scanned, random, window, fault);
                } catch (ScanFailedException e) {
                    report(campaign, trial, List.of("the scan to strike could not start (a connection the earlier"
                            + " fault killed?): " + e.getMessage()));
                    continue;
                }
                List<String> problems = new ArrayList<>();
                String outcome = "completed";
                try {
                    scan.await();
                } catch (ScanFailedException e) {
                    outcome = "failed: " + e.getMessage();
                    failed++;
                    messages.add(e.getMessage());
                    Throwable internal = CampaignChecks.internalError(e);
                    if (internal != null) {
                        problems.add("the struck scan failed with an internal error: " + internal);
                    }
                }
                String state = CampaignChecks.scanStates(raw).get(scan.scanId());
                if (recordedAtOnce && "RUNNING".equals(state)) {
                    problems.add("the struck scan " + scan.scanId() + " returned but is left RUNNING; it " + outcome);
                }
                problems.addAll(cleanScanAndCheck(faulted, root, raw, feed));
                report(campaign, trial, problems);
            }
            report(campaign, campaign.trials(), finalChecks(index, root, raw, feed));
            campaign.note(failed + " of " + campaign.trials() + " struck scans failed (a scan struck at a random moment may have"
                    + " completed first); feed: " + feed.received()
                    + " changes, " + feed.failedReads() + " reads retried; messages seen: "
                    + messages.stream().distinct().limit(3).toList());
        }
        campaign.finish(campaign.trials());
    }

    /**
     * Starts a scan of {@code scanned} and strikes it: at a random moment (anywhere, in a statement or a commit too, if
     * the scan is not done by then) or right after it read a random directory, before it applies that listing (surely
     * mid-scan), as {@code random} decides.
     */
    private static ScanSession startAndStrike(FsIndex index, Path scanned, Random random, long window, Fault fault)
            throws Exception {
        if (random.nextBoolean()) {
            ScanSession scan = index.startScan(scanned);
            Thread.sleep(random.nextInt((int) window));
            fault.strike();
            return scan;
        }
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(randomDirectory(scanned, random));
        ScanSession scan = index.startScan(scanned, ScanOptions.defaults().withWalker(walker));
        try {
            pause.awaitPaused();
            fault.strike();
        } finally {
            walker.releaseAll();
        }
        return scan;
    }

    /** A directory below {@code root} (or {@code root} itself), drawn from {@code random}. */
    private static Path randomDirectory(Path root, Random random) throws java.io.IOException {
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(root)) {
            List<Path> dirs = s.filter(java.nio.file.Files::isDirectory).sorted().toList();
            return dirs.get(random.nextInt(dirs.size()));
        }
    }

    /** How long a scan of the tree after some changes takes here, times one and a half (at least 100 ms). */
    private static long timeOfAScan(FsIndex index, Path root, SeededChurn churn) {
        churn.change(20);
        long start = System.nanoTime();
        index.scan(root);
        return Math.max(100, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) * 3 / 2);
    }
}
