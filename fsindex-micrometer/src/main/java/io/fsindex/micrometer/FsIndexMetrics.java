package io.fsindex.micrometer;

import io.fsindex.core.FsIndex;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Meters of one open {@link FsIndex}, read from its public API when the registry is scraped:
 * <ul>
 *   <li>{@code fsindex.transaction.retries} (function counter): write transactions run again because the database
 *       was busy, deadlocked or refused a bulk load ({@link FsIndex#transactionRetries()});</li>
 *   <li>{@code fsindex.changefeed.end} (gauge): the number of the last change committed
 *       ({@link FsIndex#changeFeedEnd()}); a consumer's lag is this minus its cursor;</li>
 *   <li>{@code fsindex.changefeed.length} (gauge): the changes the feed holds ({@link FsIndex#changeFeedLength()}).</li>
 * </ul>
 * The gauges query the database at each scrape, and read NaN once the index is closed. Scans are measured by a
 * {@link ScanMetrics} listener; the connection pool fsindex opens reports through
 * {@code FsIndex.Builder.metricRegistry(registry)}.
 * <pre>{@code
 * new FsIndexMetrics(index, Tags.of("index", "media")).bindTo(registry);
 * }</pre>
 */
public final class FsIndexMetrics implements MeterBinder {
    private final FsIndex index;
    private final Iterable<Tag> tags;

    /**
     * Meters of {@code index} without tags.
     *
     * @param index the open index
     */
    public FsIndexMetrics(FsIndex index) {
        this(index, Tags.empty());
    }

    /**
     * Meters of {@code index}, each with {@code tags} (to tell several indexes apart).
     *
     * @param index the open index
     * @param tags  tags every meter gets
     */
    public FsIndexMetrics(FsIndex index, Iterable<Tag> tags) {
        this.index = Objects.requireNonNull(index, "index");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("fsindex.transaction.retries", index, FsIndex::transactionRetries)
                .description("write transactions run again because the database was busy")
                .tags(tags)
                .register(registry);
        Gauge.builder("fsindex.changefeed.end", index, whileOpen(FsIndex::changeFeedEnd))
                .description("the number of the last change committed to the change feed")
                .tags(tags)
                .register(registry);
        Gauge.builder("fsindex.changefeed.length", index, whileOpen(FsIndex::changeFeedLength))
                .description("the changes the change feed holds")
                .tags(tags)
                .register(registry);
    }

    /** A gauge's reading: NaN for a closed index or a failed query, since a scrape must not fail on either. */
    private static java.util.function.ToDoubleFunction<FsIndex> whileOpen(ToLongFunction<FsIndex> read) {
        return index -> {
            try {
                return read.applyAsLong(index);
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        };
    }
}
