package io.fsindex.api;

import java.time.Duration;
import java.util.Objects;

/**
 * How a watch ({@code FsIndex.watch}) keeps an index current. Immutable; start from {@link #defaults()} and change
 * what you need:
 * <pre>{@code WatchOptions.defaults().withSettle(Duration.ofMillis(100)).withRescanEvery(Duration.ofHours(6))}</pre>
 *
 * @param scanOptions           how each of the watch's scans runs; its listener receives every scan's events and
 *                              the watch's own reports ({@link ScanListener#error} with
 *                              {@link ScanError.Reason#EVENTS_LOST} or {@link ScanError.Reason#NOT_WATCHED});
 *                              {@code removeMissingRoot} is ignored, a watch never removes its missing root
 * @param settle                how long a directory must have had no new event before it is scanned, so a burst of
 *                              events becomes one scan; a directory that keeps changing is scanned at the latest
 *                              after twice this
 * @param rescanEvery           how often the whole tree is scanned again anyway, as a safety net; {@link Duration#ZERO}
 *                              (the default) for never
 * @param unwatchedRescanEvery  how often a subtree that cannot be watched (the kernel's watch limit, a network
 *                              filesystem, a registration error) is scanned instead, and watching it tried again
 * @param skipInitialScanWithin skip the initial scan of the root if a complete scan of it finished at most this long
 *                              ago; {@link Duration#ZERO} (the default) always scans first
 * @param parallelScans         how many scans the watch runs at once, each of a directory that is neither above nor
 *                              below another running one (default 4; 1 runs them one at a time). Each running scan
 *                              holds a database connection. The listener is still called by one scan at a time
 */
public record WatchOptions(ScanOptions scanOptions, Duration settle, Duration rescanEvery,
                           Duration unwatchedRescanEvery, Duration skipInitialScanWithin, int parallelScans) {
    /** The default of {@link #parallelScans}. */
    public static final int DEFAULT_PARALLEL_SCANS = 4;

    /**
     * Checks that every option is given and no duration is negative; settle and unwatched rescans must be positive.
     *
     * @param scanOptions           how each of the watch's scans runs
     * @param settle                how long a directory must have had no new event before it is scanned
     * @param rescanEvery           how often the whole tree is scanned anyway; zero for never
     * @param unwatchedRescanEvery  how often a subtree that cannot be watched is scanned instead
     * @param skipInitialScanWithin how recent a complete scan of the root lets the initial scan be skipped; zero for
     *                              never
     * @param parallelScans         how many scans may run at once; at least 1
     */
    public WatchOptions {
        Objects.requireNonNull(scanOptions, "scanOptions");
        Objects.requireNonNull(settle, "settle");
        Objects.requireNonNull(rescanEvery, "rescanEvery");
        Objects.requireNonNull(unwatchedRescanEvery, "unwatchedRescanEvery");
        Objects.requireNonNull(skipInitialScanWithin, "skipInitialScanWithin");
        if (settle.isNegative() || settle.isZero()) {
            throw new IllegalArgumentException("settle must be positive: " + settle);
        }
        if (unwatchedRescanEvery.isNegative() || unwatchedRescanEvery.isZero()) {
            throw new IllegalArgumentException("unwatchedRescanEvery must be positive: " + unwatchedRescanEvery);
        }
        if (rescanEvery.isNegative() || skipInitialScanWithin.isNegative()) {
            throw new IllegalArgumentException("durations must not be negative");
        }
        if (parallelScans < 1) {
            throw new IllegalArgumentException("parallelScans must be at least 1: " + parallelScans);
        }
    }

    /**
     * The defaults: default scan options, a settle window of 200 ms, no periodic rescan, unwatchable subtrees scanned
     * every minute, an initial scan always, and up to {@value #DEFAULT_PARALLEL_SCANS} scans at once.
     *
     * @return the default options
     */
    public static WatchOptions defaults() {
        return new WatchOptions(ScanOptions.defaults(), Duration.ofMillis(200), Duration.ZERO, Duration.ofMinutes(1),
                Duration.ZERO, DEFAULT_PARALLEL_SCANS);
    }

    /**
     * @param options how each scan runs (listener, walker, links, content hashing)
     * @return these options with other scan options
     */
    public WatchOptions withScanOptions(ScanOptions options) {
        return new WatchOptions(options, settle, rescanEvery, unwatchedRescanEvery, skipInitialScanWithin,
                parallelScans);
    }

    /**
     * @param listener receives every scan's events and the watch's reports
     * @return these options with the scan options' listener replaced
     */
    public WatchOptions withListener(ScanListener listener) {
        return withScanOptions(scanOptions.withListener(listener));
    }

    /**
     * @param window how long a directory must be quiet before it is scanned
     * @return these options with another settle window
     */
    public WatchOptions withSettle(Duration window) {
        return new WatchOptions(scanOptions, window, rescanEvery, unwatchedRescanEvery, skipInitialScanWithin,
                parallelScans);
    }

    /**
     * @param every how often to scan the whole tree anyway; {@link Duration#ZERO} for never
     * @return these options with another safety rescan interval
     */
    public WatchOptions withRescanEvery(Duration every) {
        return new WatchOptions(scanOptions, settle, every, unwatchedRescanEvery, skipInitialScanWithin, parallelScans);
    }

    /**
     * @param every how often to scan a subtree that cannot be watched
     * @return these options with another interval for those
     */
    public WatchOptions withUnwatchedRescanEvery(Duration every) {
        return new WatchOptions(scanOptions, settle, rescanEvery, every, skipInitialScanWithin, parallelScans);
    }

    /**
     * @param within skip the initial scan if a complete scan of the root finished at most this long ago
     * @return these options with that choice
     */
    public WatchOptions withSkipInitialScanWithin(Duration within) {
        return new WatchOptions(scanOptions, settle, rescanEvery, unwatchedRescanEvery, within, parallelScans);
    }

    /**
     * @param scans how many scans may run at once, each of a directory neither above nor below another running one;
     *              1 runs them one at a time
     * @return these options with that bound
     */
    public WatchOptions withParallelScans(int scans) {
        return new WatchOptions(scanOptions, settle, rescanEvery, unwatchedRescanEvery, skipInitialScanWithin, scans);
    }
}
