package io.fsindex.core;

import io.fsindex.api.Walker;
import io.fsindex.core.spi.Dialect;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * What an {@link FsIndex.Builder} was given, sealed when the index is opened: later calls on the builder change
 * nothing in an index already built.
 *
 * @param jdbcUrl            the database's JDBC URL, or null when a data source is given
 * @param user               the database user, or null
 * @param password           the user's password, or null
 * @param dataSource         the application's data source, or null when fsindex opens a pool for the URL
 * @param dialect            the dialect to use, or null to pick the one that serves the URL
 * @param tablePrefix        the prefix of fsindex's table names
 * @param schemaMode         whether the schema is created and upgraded, or only checked
 * @param walker             lists directories for scans
 * @param retryTimeout       how long a busy database is retried
 * @param orphanRetention    how long a gone entry's row is kept for move detection
 * @param changeFeedCapacity how many changes the feed keeps
 * @param scanLease          how long a scan may go without showing life before it is taken for dead
 * @param scanIdAllocation   where scan ids come from
 * @param maxPoolSize        the size of the pool fsindex opens, or 0 for the dialect's default
 * @param nameSearchIndex    whether names are indexed for substring search
 * @param metricRegistry     a Micrometer registry for the pool's metrics, or null
 * @param plainForeignKeys   whether references are plain foreign keys instead of statement triggers
 * @param serializableWrites whether write transactions run at SERIALIZABLE
 */
record IndexConfig(String jdbcUrl, String user, String password, DataSource dataSource, Dialect dialect,
                   String tablePrefix, SchemaMode schemaMode, Walker walker, Duration retryTimeout,
                   Duration orphanRetention, long changeFeedCapacity, Duration scanLease,
                   ScanIdAllocation scanIdAllocation, int maxPoolSize, boolean nameSearchIndex, Object metricRegistry,
                   boolean plainForeignKeys, boolean serializableWrites) {
}
