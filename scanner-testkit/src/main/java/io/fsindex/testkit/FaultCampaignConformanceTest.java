package io.fsindex.testkit;

import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The fault campaign's faults that every engine meets: scanning processes SIGKILLed at random points while the tree
 * changes, and concurrent full and subtree scans in several processes under churn with a feed consumer. Each is a
 * seeded series of trials (see {@link FaultCampaign} for the knobs: {@code -Dfsindex.faults.seed},
 * {@code -Dfsindex.faults.trials}, {@code -Dfsindex.faults.entries}); after each, one more clean scan must give an
 * index equal to the tree, with no orphan or stale row, a feed without gaps or repeated transitions whose replay gives
 * the index, no internal error in any scan, and (once the dead scans' lease has run out) no scan left
 * {@code RUNNING}. A failed trial is reported and the campaign goes on; the test fails at the end with every failed
 * trial. A dialect's test extends this class like {@link FsIndexConformanceTest};
 * {@link ServerFaultCampaignConformanceTest} adds the faults of server engines.
 */
public abstract class FaultCampaignConformanceTest extends IndexTest {
    /** Short, so dead scans are recognised within the campaign; a live scan beats every quarter of it. */
    protected static final Duration LEASE = Duration.ofSeconds(2);
    /** The subtrees that subtree scans take as their roots. */
    protected static final List<String> SUBTREES = List.of("s1", "s2");
    private static final int MIN_KILLS = 20;
    private static final int CLEAN_SCAN_ATTEMPTS = 5;

    /** The engine's name for the campaign's report: the JDBC URL's scheme. */
    protected String engine() {
        return database().jdbcUrl().split(":")[1];
    }

    /** Creates the campaign's tree (about {@code campaign.entries()} entries) and returns its root, a real path. */
    protected Path campaignTree(FaultCampaign campaign, SeededChurn[] churn) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("tree")).toRealPath();
        List<String> bases = new ArrayList<>(List.of(""));
        bases.addAll(SUBTREES);
        churn[0] = new SeededChurn(root, bases, campaign.random("tree"));
        churn[0].populate(campaign.entries());
        return root;
    }

    /**
     * One more clean full scan (if it fails, that is a problem, and it is tried again, up to five times), then every
     * check: index equals tree, no orphan or stale row, and the feed (read up to its end) without problems and
     * replaying to the index. Returns what is wrong.
     */
    protected static List<String> cleanScanAndCheck(FsIndex index, Path root, RawIndex raw, FeedAudit feed) {
        List<String> problems = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        while (true) {
            try {
                index.scan(root);
                break;
            } catch (ScanFailedException e) {
                Throwable internal = CampaignChecks.internalError(e);
                failures.add((internal == null ? "" : "internal error " + internal + ": ") + e.getMessage());
                if (failures.size() == CLEAN_SCAN_ATTEMPTS) {
                    problems.add("the clean scan after the fault failed " + failures.size() + " times: "
                            + failures.stream().distinct().toList());
                    return problems;
                }
            }
        }
        if (!failures.isEmpty()) {
            problems.add("the clean scan after the fault failed " + failures.size() + " time(s) before one completed: "
                    + failures.stream().distinct().toList());
        }
        problems.addAll(CampaignChecks.indexEqualsTree(index, root));
        try {
            problems.addAll(CampaignChecks.noOrphansOrStaleRows(raw));
            feed.catchUp();
            problems.addAll(feed.problems(CampaignChecks.indexById(raw)));
        } catch (java.sql.SQLException e) {
            problems.add("cannot read the index: " + e.getMessage());
        }
        return problems;
    }

    /**
     * After the campaign, with every scan done: waits out the lease of scans that died, runs a clean scan, whose start
     * records them {@code ABANDONED}, and checks everything once more, including that no scan is left
     * {@code RUNNING} and no recorded message names an internal error.
     */
    protected static List<String> finalChecks(FsIndex index, Path root, RawIndex raw, FeedAudit feed)
            throws Exception {
        if (!CampaignChecks.noScanRunning(raw).isEmpty()) {
            Thread.sleep(LEASE.toMillis() + 200); // a lease is a span of time: only time makes a dead scan's run out
        }
        List<String> problems = cleanScanAndCheck(index, root, raw, feed);
        problems.addAll(CampaignChecks.noScanRunning(raw));
        problems.addAll(CampaignChecks.noInternalErrorRecorded(raw));
        return problems;
    }

    /**
     * SIGKILL of scanning child JVMs at {@code max(20, trials)} random points. Each round releases two children, which
     * scan the whole tree or a subtree again and again (the order drawn from the seed), and kills each after a random
     * delay from the start of its first scan; the tree changes between rounds, and each round ends with a clean scan
     * and the checks, so the next children meet what the dead scans left only after the check, while the dead scan
     * of one child meets the other child's live one. Only kills that struck mid-scan count.
     */
    @Test
    void scanningProcessesSigkilledAtRandomPointsLoseNothing() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "SIGKILL of a scanning process", MIN_KILLS);
        int kills = Math.max(MIN_KILLS, campaign.trials());
        Random random = campaign.random("kills");
        SeededChurn[] churn = new SeededChurn[1];
        Path root = campaignTree(campaign, churn);
        FsIndex index = openIndex(b -> b.scanLease(LEASE));
        RawIndex raw = new RawIndex(database(), prefix());
        index.scan(root);
        Properties properties = database().properties(prefix());
        Path work = Files.createDirectories(tmp.resolve("children"));
        List<Long> killed = new ArrayList<>();
        int attempts = 0;
        try (IndexReader reader = database().builder(prefix()).buildReader(); FeedAudit feed = new FeedAudit(reader)) {
            long window = warmUp(properties, work, root);
            List<LoopingScanChild.Handle> pair = List.of(child(properties, work, attempts + 1, root, random),
                    child(properties, work, attempts + 2, root, random));
            try {
                while (killed.size() < kills && attempts < 3 * kills) {
                    List<LoopingScanChild.Handle> current = pair;
                    attempts += 2;
                    pair = List.of(child(properties, work, attempts + 1, root, random),
                            child(properties, work, attempts + 2, root, random));
                    for (LoopingScanChild.Handle c : current) {
                        c.release();
                    }
                    for (LoopingScanChild.Handle c : current) {
                        killMidScan(campaign, c, random.nextInt((int) window), attempts, killed);
                    }
                    churn[0].change(1 + random.nextInt(40));
                    report(campaign, killed.size(), cleanScanAndCheck(index, root, raw, feed));
                }
            } finally {
                for (LoopingScanChild.Handle c : pair) {
                    c.kill();
                }
            }
            report(campaign, killed.size(), finalChecks(index, root, raw, feed));
            Map<Long, String> states = CampaignChecks.scanStates(raw);
            long abandoned = killed.stream().filter(id -> "ABANDONED".equals(states.get(id))).count();
            campaign.note(killed.size() + " of " + attempts + " kills struck mid-scan, " + abandoned
                    + " of those scans recorded ABANDONED (the others had committed their outcome just before the"
                    + " kill); feed: " + feed.received() + " changes " + feed.byType());
        }
        if (killed.size() < kills) {
            campaign.failed(attempts, "only " + killed.size() + " of " + attempts + " kills struck mid-scan (want "
                    + kills + ")");
        }
        campaign.finish(killed.size());
    }

    /**
     * Waits for {@code child}'s first scan to start, lets it run {@code delayMillis} (the random point: how far its
     * scans got by then), SIGKILLs it, and adds the scan it cut short to {@code killed}.
     */
    private static void killMidScan(FaultCampaign campaign, LoopingScanChild.Handle child, long delayMillis,
                                    int attempt, List<Long> killed) throws Exception {
        try {
            if (!child.awaitLine("started", TimeUnit.MINUTES.toMillis(2))) {
                campaign.failed(attempt, "a scanning child never started a scan:\n" + child.output());
                return;
            }
            Thread.sleep(delayMillis);
        } finally {
            child.kill();
        }
        String internal = CampaignChecks.internalError(child.output());
        if (internal != null) {
            campaign.failed(attempt, "a scan failed with an internal error: " + internal);
        }
        long cut = child.scanCutShort();
        if (cut >= 0) {
            killed.add(cut);
        }
    }

    /** Starts one child that scans the whole tree once, and returns how long that took it (at least 100 ms). */
    private long warmUp(Properties properties, Path work, Path root) throws Exception {
        LoopingScanChild.Handle first = LoopingScanChild.start(properties, LEASE, work, "warm-up", List.of(root));
        try {
            first.release();
            if (!first.awaitLine("started", TimeUnit.MINUTES.toMillis(2))) {
                throw new AssertionError("the warm-up scan in a child JVM did not start:\n" + first.output());
            }
            long start = System.nanoTime();
            if (!first.awaitLine("completed", TimeUnit.MINUTES.toMillis(2))) {
                throw new AssertionError("the warm-up scan in a child JVM did not complete:\n" + first.output());
            }
            return Math.max(100, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) * 3 / 2);
        } finally {
            first.kill();
        }
    }

    private static LoopingScanChild.Handle child(Properties properties, Path work, int number, Path root,
                                                 Random random) throws Exception {
        List<Path> roots = new ArrayList<>(List.of(root));
        SUBTREES.forEach(s -> roots.add(root.resolve(s)));
        java.util.Collections.rotate(roots, random.nextInt(roots.size()));
        return LoopingScanChild.start(properties, LEASE, work, "child-" + number, roots);
    }

    /** Records a trial's problems as its failure, if it has any. */
    protected static void report(FaultCampaign campaign, int trial, List<String> problems) {
        if (!problems.isEmpty()) {
            campaign.failed(trial, String.join("\n    ", problems));
        }
    }

    /**
     * Concurrent full and subtree scans in several processes under churn, with a feed consumer: per trial, four child
     * JVMs (two scanning the whole tree, one each subtree, each twice back to back) while this JVM renames, moves,
     * deletes and creates entries under the subtrees and a consumer follows the feed. No scan may fail.
     */
    @Test
    void concurrentScansInSeveralProcessesUnderChurnKeepTheFeedExact() throws Exception {
        FaultCampaign campaign = FaultCampaign.of(engine(), "concurrent scans in processes under churn", 1);
        SeededChurn[] tree = new SeededChurn[1];
        Path root = campaignTree(campaign, tree);
        SeededChurn churn = new SeededChurn(root, SUBTREES, campaign.random("churn"));
        FsIndex index = openIndex(b -> b.scanLease(LEASE));
        RawIndex raw = new RawIndex(database(), prefix());
        index.scan(root);
        try (IndexReader reader = database().builder(prefix()).buildReader(); FeedAudit feed = new FeedAudit(reader)) {
            for (int trial = 1; trial <= campaign.trials(); trial++) {
                ChildJvm children = new ChildJvm(Files.createDirectories(tmp.resolve("trial-" + trial)),
                        database().properties(prefix()));
                List<String> problems = new ArrayList<>();
                try {
                    children.start("full-1", root, 2);
                    children.start("full-2", root, 2);
                    for (String s : SUBTREES) {
                        children.start(s, root.resolve(s), 2);
                    }
                    children.releaseWhenAllReady();
                    while (children.anyAlive()) {
                        churn.change();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // leave the CPUs mostly to the scans
                    }
                    children.assertAllSucceed();
                } catch (AssertionError e) {
                    String internal = CampaignChecks.internalError(e.getMessage());
                    problems.add("a scanning process failed" + (internal == null ? "" : " with an internal error ("
                            + internal + ")") + ": " + e.getMessage());
                } finally {
                    children.destroyAll();
                }
                problems.addAll(cleanScanAndCheck(index, root, raw, feed));
                report(campaign, trial, problems);
            }
            report(campaign, campaign.trials(), finalChecks(index, root, raw, feed));
            campaign.note("churn made " + churn.changes() + " changes; feed: " + feed.received() + " changes "
                    + feed.byType());
        }
        campaign.finish(campaign.trials());
    }
}
