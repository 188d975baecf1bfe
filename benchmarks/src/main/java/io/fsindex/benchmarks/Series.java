package io.fsindex.benchmarks;

import java.util.ArrayList;
import java.util.List;

/** The measurements of one scenario over the runs: seconds each, and the largest heap use of any. */
final class Series {
    private final List<Double> seconds = new ArrayList<>();
    private long peak = -1;
    private long live = -1;

    void add(double s, HeapMonitor.Usage usage) {
        seconds.add(s);
        peak = Math.max(peak, usage.peak());
        live = Math.max(live, usage.live());
    }

    boolean isEmpty() {
        return seconds.isEmpty();
    }

    double median() {
        return seconds.isEmpty() ? Double.NaN : median(seconds);
    }

    HeapMonitor.Usage heap() {
        return new HeapMonitor.Usage(peak, live);
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
