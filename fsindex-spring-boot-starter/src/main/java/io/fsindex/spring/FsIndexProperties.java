package io.fsindex.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code fsindex.*} settings of the auto-configured {@link io.fsindex.core.FsIndex}, one per builder setting,
 * spelt and read exactly as {@link io.fsindex.core.FsIndex#fromProperties} reads them: durations such as {@code 90s},
 * {@code 5m}, {@code 1h30m}, {@code 7d} or ISO-8601 {@code PT1H}, and an invalid value fails the application's start
 * with a message naming the key and what it accepts. Spring's relaxed names work too
 * ({@code fsindex.table-prefix}, {@code FSINDEX_TABLE_PREFIX}). Unset settings keep fsindex's defaults.
 */
@ConfigurationProperties(prefix = "fsindex")
public class FsIndexProperties {
    /**
     * JDBC URL of the index's database, e.g. jdbc:sqlite:index.db; fsindex opens and closes its own pool for it.
     * When set it wins over the application's DataSource bean; when unset, that DataSource is used.
     */
    private String url;
    /** Database user, with fsindex.url. */
    private String user;
    /** Database password, with fsindex.url. */
    private String password;
    /** Prefix of fsindex's table names (default fsindex_): letters, digits and underscores. */
    private String tablePrefix;
    /** migrate (create and upgrade the tables, the default) or validate (only check them). */
    private String schemaMode;
    /** How long a transaction is retried while the database stays busy or deadlocked (default 5m). */
    private String retryTimeout;
    /** How long the row of a file found gone is kept so a move elsewhere keeps its id (default 7d). */
    private String orphanRetention;
    /** How many of the newest changes the change feed keeps (default 1000000). */
    private String changeFeedCapacity;
    /** How long a running scan may show no sign of life before it is taken for abandoned (default 1m). */
    private String scanLease;
    /** The most connections fsindex's own pool opens, with fsindex.url (default: 10; SQLite 32). */
    private String maxPoolSize;
    /** Whether the engine keeps a trigram index of names for find (true or false; default false). */
    private String nameSearchIndex;
    /** Where new scans' ids come from: ordered (a counter row, the default) or native (the engine's allocator). */
    private String scanIdAllocation;
    /** Scan rules stored for roots as the context starts (fsindex.scopes[0].root, .excludes, ...). */
    private List<FsIndexScopeProperties> scopes = new ArrayList<>();
    /** Trees kept current while the application runs (fsindex.watch.roots, .settle, .rescan-every). */
    private final FsIndexWatchProperties watch = new FsIndexWatchProperties();

    /** The settings that are set, as the {@code fsindex.*} properties {@code FsIndex.Builder.properties} reads. */
    Properties toProperties() {
        Properties p = new Properties();
        put(p, "url", url);
        put(p, "user", user);
        put(p, "password", password);
        put(p, "tablePrefix", tablePrefix);
        put(p, "schemaMode", schemaMode);
        put(p, "retryTimeout", retryTimeout);
        put(p, "orphanRetention", orphanRetention);
        put(p, "changeFeedCapacity", changeFeedCapacity);
        put(p, "scanLease", scanLease);
        put(p, "maxPoolSize", maxPoolSize);
        put(p, "nameSearchIndex", nameSearchIndex);
        put(p, "scanIdAllocation", scanIdAllocation);
        return p;
    }

    private static void put(Properties p, String name, String value) {
        if (value != null) {
            p.setProperty("fsindex." + name, value);
        }
    }

    /** @return the JDBC URL, or {@code null} to use the application's DataSource */
    public String getUrl() {
        return url;
    }

    /** @param url the JDBC URL */
    public void setUrl(String url) {
        this.url = url;
    }

    /** @return the database user */
    public String getUser() {
        return user;
    }

    /** @param user the database user */
    public void setUser(String user) {
        this.user = user;
    }

    /** @return the database password */
    public String getPassword() {
        return password;
    }

    /** @param password the database password */
    public void setPassword(String password) {
        this.password = password;
    }

    /** @return the table prefix */
    public String getTablePrefix() {
        return tablePrefix;
    }

    /** @param tablePrefix the table prefix */
    public void setTablePrefix(String tablePrefix) {
        this.tablePrefix = tablePrefix;
    }

    /** @return migrate or validate */
    public String getSchemaMode() {
        return schemaMode;
    }

    /** @param schemaMode migrate or validate */
    public void setSchemaMode(String schemaMode) {
        this.schemaMode = schemaMode;
    }

    /** @return the retry timeout, as written */
    public String getRetryTimeout() {
        return retryTimeout;
    }

    /** @param retryTimeout a duration such as 30s or 5m */
    public void setRetryTimeout(String retryTimeout) {
        this.retryTimeout = retryTimeout;
    }

    /** @return the orphan retention, as written */
    public String getOrphanRetention() {
        return orphanRetention;
    }

    /** @param orphanRetention a duration such as 7d */
    public void setOrphanRetention(String orphanRetention) {
        this.orphanRetention = orphanRetention;
    }

    /** @return the change feed's capacity, as written */
    public String getChangeFeedCapacity() {
        return changeFeedCapacity;
    }

    /** @param changeFeedCapacity a number of changes, at least 1 */
    public void setChangeFeedCapacity(String changeFeedCapacity) {
        this.changeFeedCapacity = changeFeedCapacity;
    }

    /** @return the scan lease, as written */
    public String getScanLease() {
        return scanLease;
    }

    /** @param scanLease a duration such as 1m */
    public void setScanLease(String scanLease) {
        this.scanLease = scanLease;
    }

    /** @return the pool size, as written */
    public String getMaxPoolSize() {
        return maxPoolSize;
    }

    /** @param maxPoolSize the most connections fsindex's own pool opens */
    public void setMaxPoolSize(String maxPoolSize) {
        this.maxPoolSize = maxPoolSize;
    }

    /** @return whether the name search index is kept, as written */
    public String getNameSearchIndex() {
        return nameSearchIndex;
    }

    /** @param nameSearchIndex true or false */
    public void setNameSearchIndex(String nameSearchIndex) {
        this.nameSearchIndex = nameSearchIndex;
    }

    /** @return where new scans' ids come from, as written */
    public String getScanIdAllocation() {
        return scanIdAllocation;
    }

    /** @param scanIdAllocation ordered or native */
    public void setScanIdAllocation(String scanIdAllocation) {
        this.scanIdAllocation = scanIdAllocation;
    }

    /** @return the scan rules to store for roots */
    public List<FsIndexScopeProperties> getScopes() {
        return scopes;
    }

    /** @param scopes the scan rules to store for roots */
    public void setScopes(List<FsIndexScopeProperties> scopes) {
        this.scopes = scopes;
    }

    /** @return the trees to watch */
    public FsIndexWatchProperties getWatch() {
        return watch;
    }
}
