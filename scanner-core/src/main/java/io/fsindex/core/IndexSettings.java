package io.fsindex.core;

import io.fsindex.core.internal.Settings;
import io.fsindex.core.internal.TableNames;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.ScanRecord;
import io.fsindex.api.Walker;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * The settings an {@link FsIndex.Builder} collects, each checked as it is given; {@code FsIndex.Builder} is the public
 * face of this class, which only keeps the setters out of {@code FsIndex}'s file.
 *
 * @param <B> the builder type each setter returns
 */
abstract class IndexSettings<B extends IndexSettings<B>> {
    private String jdbcUrl;
    private String user;
    private String password;
    private DataSource dataSource;
    private Dialect dialect;
    private String tablePrefix = FsTables.DEFAULT_PREFIX;
    private SchemaMode schemaMode = SchemaMode.MIGRATE;
    private Walker walker = new NioWalker();
    private Duration retryTimeout = Duration.ofMinutes(5);
    private Duration orphanRetention = FeedSettings.DEFAULTS.orphanRetention();
    private long changeFeedCapacity = FeedSettings.DEFAULTS.feedCapacity();
    private Duration scanLease = Duration.ofMinutes(1);
    private ScanIdAllocation scanIdAllocation = ScanIdAllocation.ORDERED;
    private int maxPoolSize;
    private boolean nameSearchIndex;
    private Object metricRegistry;
    private boolean plainForeignKeys;
    private boolean serializableWrites;

    IndexSettings() {
    }

    /** This builder, typed as the caller holds it. */
    abstract B self();

    /** What this builder holds now, for the index it opens. */
    IndexConfig config() {
        return new IndexConfig(jdbcUrl, user, password, dataSource, dialect, tablePrefix, schemaMode, walker,
                retryTimeout, orphanRetention, changeFeedCapacity, scanLease, scanIdAllocation, maxPoolSize,
                nameSearchIndex, metricRegistry, plainForeignKeys, serializableWrites);
    }


    /**
     * How long the row of an entry found gone is kept, invisible to lookups, so that a later scan that finds the
     * same file (same device and inode) elsewhere moves the row and keeps its id; 7 days by default. Zero deletes
     * gone entries' rows at the end of the scan that found them gone (a move is then still recognised within
     * one scan).
     */
    public B orphanRetention(Duration retention) {
        if (retention == null || retention.isNegative()) {
            throw new FsIndexConfigurationException("orphanRetention must be zero or positive; got " + retention);
        }
        this.orphanRetention = retention;
        return self();
    }

    /**
     * How many of the newest changes the change feed keeps (1,000,000 by default); older ones are pruned at the
     * end of each scan, and a consumer whose cursor falls behind them is told to resync.
     */
    public B changeFeedCapacity(long capacity) {
        if (capacity < 1) {
            throw new FsIndexConfigurationException("changeFeedCapacity must be at least 1; got " + capacity);
        }
        this.changeFeedCapacity = capacity;
        return self();
    }

    /**
     * How long a running scan may show no sign of life before other scans and readers take its process for gone
     * (1 minute by default). A running scan refreshes its heartbeat every quarter of this, from a connection of
     * its own: one short write per index with running scans. A scan whose heartbeat is older is shown
     * {@code ABANDONED} and recorded so by the next scan's start (see {@link ScanRecord}). Machines sharing a
     * database compare their clocks through it: raise this well above their clock skew and above the longest
     * time the database may block a write (a SQLite file locked by another process, say).
     */
    public B scanLease(Duration lease) {
        if (lease == null || lease.toMillis() < 4) {
            throw new IllegalArgumentException("the scan lease must be at least 4 ms; got " + lease);
        }
        this.scanLease = lease;
        return self();
    }

    /**
     * The most connections the pool fsindex opens for a {@link #jdbcUrl URL} may hold (by default 10 on
     * PostgreSQL and 32 on MySQL and MariaDB); each running scan keeps one for its whole run, and lookups and
     * heartbeats borrow one briefly. SQLite opens no pool and ignores it; with an application's
     * {@link #dataSource data source} it is an error, since that pool is the application's to size.
     */
    public B maxPoolSize(int size) {
        if (size < 1) {
            throw new FsIndexConfigurationException("maxPoolSize must be at least 1; got " + size);
        }
        this.maxPoolSize = size;
        return self();
    }

    /**
     * Whether the database keeps a text index of names for fast case-insensitive substring search
     * ({@link io.fsindex.api.FileQuery#withNameContaining}); off by default. On, opening the index in
     * {@link SchemaMode#MIGRATE} mode creates and fills it if it is missing (SQLite: an FTS5 trigram table with
     * triggers; PostgreSQL: a {@code pg_trgm} GIN index, creating the extension if need be), and every scan then
     * keeps it current in the same transaction as the rows, at a write cost; off, that opening drops it. MySQL and
     * MariaDB have no index that fits and search by a plain scan either way. Results are the same with the index
     * and without: it only narrows which names are matched. A read-only handle uses the index when the database
     * has it, whatever this setting says.
     */
    public B nameSearchIndex(boolean enabled) {
        this.nameSearchIndex = enabled;
        return self();
    }

    /**
     * Where the connection pool fsindex opens for a {@link #jdbcUrl URL} reports its metrics: a Micrometer
     * {@code MeterRegistry} or a Dropwizard {@code MetricRegistry}, handed to HikariCP as it is (its meters are
     * named {@code hikaricp.connections*}, tagged {@code pool=fsindex-<engine>}). SQLite opens no pool and ignores
     * it; with an application's {@link #dataSource data source} it is an error, since that pool is the
     * application's to observe.
     */
    public B metricRegistry(Object registry) {
        this.metricRegistry = required(registry, "metricRegistry");
        return self();
    }

    /**
     * Whether the files table's references (each row's parent and scan) are plain foreign keys with
     * {@code ON DELETE CASCADE} instead of the dialect's statement triggers; off by default. PostgreSQL enforces them
     * with statement triggers over transition tables, which CockroachDB and YugabyteDB do not support; on, the
     * PostgreSQL schema keeps plain foreign keys, which those engines accept, at a cost in insert speed
     * (docs/scaling.md). The choice is made when the tables are created: opening an existing index with the
     * other setting fails and names the one it was created with. SQLite, MySQL and MariaDB always use plain
     * foreign keys, so there it changes nothing.
     */
    public B plainForeignKeys(boolean enabled) {
        this.plainForeignKeys = enabled;
        return self();
    }

    /**
     * Whether write transactions run at {@code SERIALIZABLE} isolation instead of the connection's default (READ
     * COMMITTED on PostgreSQL), as CockroachDB always runs them; off by default. Serialization failures are
     * retried, and a group of listings whose transaction keeps failing is applied in smaller transactions, so a
     * scan still finishes. Tested on PostgreSQL; SQLite serialises its writers anyway.
     */
    public B serializableWrites(boolean enabled) {
        this.serializableWrites = enabled;
        return self();
    }

    /** The database's JDBC URL, e.g. {@code jdbc:sqlite:index.db}; fsindex opens (and later closes) it. */
    public B jdbcUrl(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
        return self();
    }

    /** The database user, for a URL. */
    public B user(String user) {
        this.user = user;
        return self();
    }

    /** The database password, for a URL. */
    public B password(String password) {
        this.password = password;
        return self();
    }

    /** Use the application's own data source as it is (fsindex never closes it) instead of a URL. */
    public B dataSource(DataSource dataSource) {
        this.dataSource = dataSource;
        return self();
    }

    /** Use this dialect instead of finding one from the URL. */
    public B dialect(Dialect dialect) {
        this.dialect = dialect;
        return self();
    }

    /**
     * The prefix of fsindex's table names (default {@code fsindex_}): letters, digits and underscores. Where the
     * engine limits names (PostgreSQL to 63 characters, MySQL and MariaDB to 64), {@link FsIndex.Builder#build} refuses a prefix
     * that would make one of fsindex's names longer, and says how long a prefix the engine takes.
     */
    public B tablePrefix(String tablePrefix) {
        if (tablePrefix == null) {
            throw new FsIndexConfigurationException("tablePrefix must not be null");
        }
        try {
            new TableNames(tablePrefix); // fail here, with the builder in hand, not at build()
        } catch (IllegalArgumentException e) {
            throw new FsIndexConfigurationException(e.getMessage(), e);
        }
        this.tablePrefix = tablePrefix;
        return self();
    }

    /**
     * Where new scans' ids come from (default {@link ScanIdAllocation#ORDERED}, a counter row that keeps them in start
     * order on any engine); {@link ScanIdAllocation#NATIVE} uses the engine's own allocator. Every process writing one
     * index must use the same.
     */
    public B scanIdAllocation(ScanIdAllocation allocation) {
        this.scanIdAllocation = required(allocation, "scanIdAllocation");
        return self();
    }

    /** Whether to create and upgrade the schema, or only check it (default {@link SchemaMode#MIGRATE}). */
    public B schemaMode(SchemaMode schemaMode) {
        this.schemaMode = required(schemaMode, "schemaMode");
        return self();
    }

    /** The walker scans use unless their options name another (default {@link NioWalker}). */
    public B walker(Walker walker) {
        this.walker = required(walker, "walker");
        return self();
    }

    /** How long a transaction is retried while the database stays busy or deadlocked (default 5 minutes). */
    public B retryTimeout(Duration retryTimeout) {
        if (required(retryTimeout, "retryTimeout").isNegative()) {
            throw new FsIndexConfigurationException("retryTimeout must be zero or positive; got " + retryTimeout);
        }
        this.retryTimeout = retryTimeout;
        return self();
    }

    private static <T> T required(T value, String setting) {
        if (value == null) {
            throw new FsIndexConfigurationException(setting + " must not be null");
        }
        return value;
    }

    /**
     * Applies {@code FSINDEX_*} variables from {@code env}; see {@link FsIndex#fromEnvironment}.
     *
     * @param env variables, e.g. {@code System.getenv()}
     * @return this builder
     * @throws FsIndexConfigurationException if a value is not valid; the message names the variable
     */
    public B environment(Map<String, String> env) {
        Settings.applyEnvironment((FsIndex.Builder) this, env);
        return self();
    }

    /**
     * Applies {@code fsindex.*} properties; see {@link FsIndex#fromProperties}.
     *
     * @param p properties; keys outside {@code fsindex.*} are ignored
     * @return this builder
     * @throws FsIndexConfigurationException if an {@code fsindex.*} key is unknown or its value is not valid; the
     *                                       message names the key
     */
    public B properties(Properties p) {
        Settings.applyProperties((FsIndex.Builder) this, p);
        return self();
    }
}
