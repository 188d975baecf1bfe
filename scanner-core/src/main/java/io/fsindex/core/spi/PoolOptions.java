package io.fsindex.core.spi;

/**
 * How the connection pool a dialect opens for a JDBC URL is sized and observed, from the builder's
 * {@code maxPoolSize} and {@code metricRegistry} settings, and what its sessions will write. A dialect that opens no
 * pool (SQLite) ignores all of it.
 *
 * @param maxPoolSize           the most connections the pool may hold, at least 1; 0 for the dialect's own default
 * @param metricRegistry        where the pool reports its metrics (for HikariCP a Micrometer {@code MeterRegistry}
 *                              or a Dropwizard {@code MetricRegistry}); null for none
 * @param writesNameSearchIndex whether the index's scans write the name search index (a writable index with the
 *                              setting on), so that a dialect can give the sessions what that index needs
 */
public record PoolOptions(int maxPoolSize, Object metricRegistry, boolean writesNameSearchIndex) {
    /** The dialect's own pool size and no metrics. */
    public static final PoolOptions DEFAULTS = new PoolOptions(0, null);

    /**
     * Checks the pool size.
     *
     * @param maxPoolSize           the most connections the pool may hold; 0 for the dialect's own default
     * @param metricRegistry        where the pool reports its metrics; null for none
     * @param writesNameSearchIndex whether the index's scans write the name search index
     */
    public PoolOptions {
        if (maxPoolSize < 0) {
            throw new IllegalArgumentException("maxPoolSize must be at least 1, or 0 for the dialect's default; got "
                    + maxPoolSize);
        }
    }

    /**
     * A pool whose sessions do not write the name search index.
     *
     * @param maxPoolSize    the most connections the pool may hold; 0 for the dialect's own default
     * @param metricRegistry where the pool reports its metrics; null for none
     */
    public PoolOptions(int maxPoolSize, Object metricRegistry) {
        this(maxPoolSize, metricRegistry, false);
    }

    /**
     * The pool size to use.
     *
     * @param dialectDefault the dialect's own size
     * @return {@link #maxPoolSize} if one was given, otherwise {@code dialectDefault}
     */
    public int maxPoolSizeOr(int dialectDefault) {
        return maxPoolSize == 0 ? dialectDefault : maxPoolSize;
    }
}
