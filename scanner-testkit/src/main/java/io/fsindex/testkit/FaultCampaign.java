package io.fsindex.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The knobs and the bookkeeping of one fault of the fault campaign: how many trials, from which seed, and which trials
 * failed. The knobs are read by the tests only, from system properties Maven passes on to the test JVM:
 * <ul>
 *   <li>{@value #SEED}: the seed every random choice of the campaign derives from (default {@value #DEFAULT_SEED}), so
 *       a failing run can be repeated with the seed its report printed;</li>
 *   <li>{@value #TRIALS}: the number of trials of every fault, replacing each fault's small default (the SIGKILL
 *       fault never kills fewer than 20 times);</li>
 *   <li>{@value #ENTRIES}: about how many entries the campaign's trees start with (default {@value #DEFAULT_ENTRIES}).</li>
 * </ul>
 * A seed fixes the trees, the changes made to them and the points (delays, directories) where faults strike; how far a
 * scan has got when a delay runs out still depends on the machine's speed.
 */
public final class FaultCampaign {
    /** System property: the campaign's seed. */
    public static final String SEED = "fsindex.faults.seed";
    /** System property: the number of trials of every fault. */
    public static final String TRIALS = "fsindex.faults.trials";
    /** System property: about how many entries a campaign tree starts with. */
    public static final String ENTRIES = "fsindex.faults.entries";
    static final long DEFAULT_SEED = 19;
    static final int DEFAULT_ENTRIES = 400;

    private final String engine;
    private final String fault;
    private final long seed;
    private final int trials;
    private final int entries;
    private final long startedAt = System.nanoTime();
    private final List<String> failures = new ArrayList<>();
    private final Set<Integer> failedTrials = new TreeSet<>();
    private final List<String> notes = new ArrayList<>();

    private FaultCampaign(String engine, String fault, int defaultTrials) {
        this.engine = engine;
        this.fault = fault;
        this.seed = Long.parseLong(setting(SEED, Long.toString(DEFAULT_SEED)));
        this.trials = Integer.parseInt(setting(TRIALS, Integer.toString(defaultTrials)));
        this.entries = Integer.parseInt(setting(ENTRIES, Integer.toString(DEFAULT_ENTRIES)));
    }

    /** The campaign of {@code fault} on {@code engine}, with {@code defaultTrials} unless {@value #TRIALS} is set. */
    public static FaultCampaign of(String engine, String fault, int defaultTrials) {
        FaultCampaign c = new FaultCampaign(engine, fault, defaultTrials);
        System.out.println("fault campaign: " + engine + " / " + fault + ": seed " + c.seed + ", " + c.trials
                + " trials, trees of about " + c.entries + " entries (repeat with -D" + SEED + "=" + c.seed + " -D"
                + TRIALS + "=" + c.trials + " -D" + ENTRIES + "=" + c.entries + ")");
        return c;
    }

    /** The number of trials to run. */
    public int trials() {
        return trials;
    }

    /** About how many entries a tree of this campaign starts with. */
    public int entries() {
        return entries;
    }

    /** The campaign's seed. */
    public long seed() {
        return seed;
    }

    /** A random source for one purpose ({@code stream}) of this fault, the same for the same seed. */
    public Random random(String stream) {
        return new Random(seed * 1_000_003L + (fault + "/" + stream).hashCode());
    }

    /**
     * Records that trial {@code trial} failed, with what was wrong; the campaign goes on. A trial fails once however
     * many checks find something, and a finding already recorded (the final checks see the last trial's again) is
     * not repeated.
     */
    public void failed(int trial, String what) {
        String line = "trial " + trial + ": " + what;
        failedTrials.add(trial);
        if (failures.contains(line)) {
            return;
        }
        failures.add(line);
        System.out.println("fault campaign: " + engine + " / " + fault + ": FAILED " + line);
    }

    /** Records something the report should say (e.g. a fallback the environment forced). */
    public void note(String what) {
        notes.add(what);
        System.out.println("fault campaign: " + engine + " / " + fault + ": " + what);
    }

    /** How many trials failed so far. */
    public int failures() {
        return failedTrials.size();
    }

    /**
     * Prints the campaign's result line and fails with every failed trial if any did. The line reads {@code fault
     * campaign result: ENGINE / FAULT: N trials, M failed, S s, seed X}.
     */
    public void finish(int trialsRun) {
        long seconds = Math.round((System.nanoTime() - startedAt) / 1e9);
        System.out.println("fault campaign result: " + engine + " / " + fault + ": " + trialsRun + " trials, "
                + failedTrials.size() + " failed, " + seconds + " s, seed " + seed
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)));
        if (!failures.isEmpty()) {
            throw new AssertionError(fault + " on " + engine + ": " + failedTrials.size() + " of " + trialsRun
                    + " trials failed (seed " + seed + "; repeat with -D" + SEED + "=" + seed + " -D" + TRIALS + "="
                    + trials + " -D" + ENTRIES + "=" + entries + "):\n" + String.join("\n", failures));
        }
    }

    private static String setting(String name, String fallback) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? fallback : v.strip();
    }
}
