package io.fsindex.micrometer;

import io.fsindex.api.Change;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link ScanListener} that measures the scans it is given to, in a Micrometer registry:
 * <ul>
 *   <li>{@code fsindex.scan.duration} (timer): how long each completed scan took;</li>
 *   <li>{@code fsindex.scan.entries} (counter): entries completed scans recorded, changed or not;</li>
 *   <li>{@code fsindex.scan.entries.rate} (distribution summary, entries per second): each completed scan's
 *       entries over its duration;</li>
 *   <li>{@code fsindex.scan.rows} (counter, tag {@code change} = {@code added}, {@code modified}, {@code moved},
 *       {@code deleted}): rows completed scans wrote;</li>
 *   <li>{@code fsindex.scan.errors} (counter): entries that could not be read, as they are reported.</li>
 * </ul>
 * A scan that fails or is cancelled is counted only in {@code fsindex.scan.errors}; fsindex logs its end at INFO.
 * One instance serves any number of scans, at once too:
 * <pre>{@code
 * ScanMetrics metrics = new ScanMetrics(registry);
 * index.scan(root, ScanOptions.defaults().withListener(metrics));
 * index.scan(root, ScanOptions.defaults().withListener(metrics.andThen(myListener)));
 * }</pre>
 */
public final class ScanMetrics implements ScanListener {
    private final Timer duration;
    private final Counter entries;
    private final DistributionSummary entriesPerSecond;
    private final Counter added;
    private final Counter modified;
    private final Counter moved;
    private final Counter deleted;
    private final Counter errors;

    /**
     * Registers the scan meters, without tags.
     *
     * @param registry where to register them
     */
    public ScanMetrics(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Registers the scan meters, each with {@code tags} (to tell several indexes apart).
     *
     * @param registry where to register them
     * @param tags     tags every meter gets
     */
    public ScanMetrics(MeterRegistry registry, Iterable<Tag> tags) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(tags, "tags");
        duration = Timer.builder("fsindex.scan.duration").description("how long completed scans took").tags(tags)
                .register(registry);
        entries = Counter.builder("fsindex.scan.entries").description("entries completed scans recorded")
                .baseUnit("entries").tags(tags).register(registry);
        entriesPerSecond = DistributionSummary.builder("fsindex.scan.entries.rate")
                .description("entries per second of each completed scan").baseUnit("entries/s").tags(tags)
                .register(registry);
        added = rows(registry, tags, "added");
        modified = rows(registry, tags, "modified");
        moved = rows(registry, tags, "moved");
        deleted = rows(registry, tags, "deleted");
        errors = Counter.builder("fsindex.scan.errors").description("entries scans could not read").tags(tags)
                .register(registry);
    }

    private static Counter rows(MeterRegistry registry, Iterable<Tag> tags, String change) {
        return Counter.builder("fsindex.scan.rows").description("rows completed scans wrote").baseUnit("rows")
                .tags(tags).tag("change", change).register(registry);
    }

    @Override
    public void error(ScanError error) {
        errors.increment();
    }

    @Override
    public void finished(ScanResult result) {
        duration.record(result.duration());
        long recorded = result.added() + result.modified() + result.moved() + result.unchanged();
        entries.increment(recorded);
        double seconds = result.duration().toNanos() / 1e9;
        if (seconds > 0) {
            entriesPerSecond.record(recorded / seconds);
        }
        added.increment(result.added());
        modified.increment(result.modified());
        moved.increment(result.moved());
        deleted.increment(result.deleted());
    }

    /**
     * This listener followed by {@code next}: each event is measured, then handed on. Change events are read back
     * from the database only if {@code next} asks for them (overrides {@link ScanListener#changed}), as without it.
     *
     * @param next the application's own listener
     * @return a listener for {@code ScanOptions.withListener}
     */
    public ScanListener andThen(ScanListener next) {
        Objects.requireNonNull(next, "next");
        return wantsChanges(next) ? new ThenWithChanges(this, next) : new Then(this, next);
    }

    private static boolean wantsChanges(ScanListener listener) {
        try {
            return listener.getClass().getMethod("changed", Change.class).getDeclaringClass() != ScanListener.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /** Measures, then hands each event on; no change events, so fsindex does not read them back for it. */
    private static class Then implements ScanListener {
        final ScanMetrics first;
        final ScanListener next;

        Then(ScanMetrics first, ScanListener next) {
            this.first = first;
            this.next = next;
        }

        @Override
        public void started(long scanId, Path root) {
            next.started(scanId, root);
        }

        @Override
        public void progress(ScanProgress progress) {
            next.progress(progress);
        }

        @Override
        public void error(ScanError error) {
            first.error(error);
            next.error(error);
        }

        @Override
        public void finished(ScanResult result) {
            first.finished(result);
            next.finished(result);
        }
    }

    /** {@link Then}, handing change events on too. */
    private static final class ThenWithChanges extends Then {
        ThenWithChanges(ScanMetrics first, ScanListener next) {
            super(first, next);
        }

        @Override
        public void changed(Change change) {
            next.changed(change);
        }
    }
}
