package io.fsindex.core.internal;

import io.fsindex.core.ScanIdAllocation;
import io.fsindex.core.SchemaMode;
import io.fsindex.core.FsIndex;
import io.fsindex.api.FsIndexConfigurationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;

/**
 * The settings an {@link FsIndex.Builder} takes as text: each has an {@code fsindex.*} property and an
 * {@code FSINDEX_*} environment variable (the property's name in upper snake case). A value that does not parse
 * fails with the name it was given under and what that setting accepts.
 */
public final class Settings {

    /** One setting: its name in properties and in the environment, and how it sets the builder. */
    enum Key {
        URL("url", FsIndex.Builder::jdbcUrl),
        USER("user", FsIndex.Builder::user),
        PASSWORD("password", FsIndex.Builder::password),
        TABLE_PREFIX("tablePrefix", FsIndex.Builder::tablePrefix),
        SCHEMA_MODE("schemaMode", (b, v) -> b.schemaMode(schemaMode(v))),
        RETRY_TIMEOUT("retryTimeout", (b, v) -> b.retryTimeout(Durations.parse(v))),
        /** The older spelling of {@link #RETRY_TIMEOUT}: a bare number is seconds; a duration with units is read too. */
        RETRY_TIMEOUT_SECONDS("retryTimeoutSeconds", (b, v) -> b.retryTimeout(seconds(v))),
        ORPHAN_RETENTION("orphanRetention", (b, v) -> b.orphanRetention(Durations.parse(v))),
        CHANGE_FEED_CAPACITY("changeFeedCapacity", (b, v) -> b.changeFeedCapacity(count(v))),
        SCAN_LEASE("scanLease", (b, v) -> b.scanLease(Durations.parse(v))),
        MAX_POOL_SIZE("maxPoolSize", (b, v) -> b.maxPoolSize(poolSize(v))),
        NAME_SEARCH_INDEX("nameSearchIndex", (b, v) -> b.nameSearchIndex(bool(v))),
        SCAN_ID_ALLOCATION("scanIdAllocation", (b, v) -> b.scanIdAllocation(scanIdAllocation(v))),
        PLAIN_FOREIGN_KEYS("plainForeignKeys", (b, v) -> b.plainForeignKeys(bool(v))),
        SERIALIZABLE_WRITES("serializableWrites", (b, v) -> b.serializableWrites(bool(v)));

        final String property;
        final String variable;
        private final BiConsumer<FsIndex.Builder, String> apply;

        Key(String name, BiConsumer<FsIndex.Builder, String> apply) {
            this.property = "fsindex." + name;
            this.variable = "FSINDEX_" + name.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
            this.apply = apply;
        }
    }

    private Settings() {
    }

    /** Every property name, in the order of {@link Key}. */
    static List<String> propertyNames() {
        return Arrays.stream(Key.values()).map(k -> k.property).toList();
    }

    /** Every environment variable name, in the order of {@link Key}. */
    static List<String> variableNames() {
        return Arrays.stream(Key.values()).map(k -> k.variable).toList();
    }

    /**
     * Applies every {@code fsindex.*} property of {@code p} to {@code b}; other keys are ignored, an unknown
     * {@code fsindex.*} key is an error (so a misspelt one cannot go unnoticed).
     */
    public static void applyProperties(FsIndex.Builder b, Properties p) {
        Map<Key, String> given = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("fsindex.")) {
                Arrays.stream(Key.values()).filter(k -> k.property.equals(name)).findFirst()
                        .ifPresentOrElse(k -> given.put(k, p.getProperty(name)), () -> unknown.add(name));
            }
        }
        if (!unknown.isEmpty()) {
            throw new FsIndexConfigurationException("unknown property " + String.join(", ", unknown.stream().sorted()
                    .toList()) + "; known: " + propertyNames());
        }
        apply(b, given, false);
    }

    /**
     * Applies the {@code FSINDEX_*} variables of {@code env} to {@code b}; an empty variable counts as unset. Other
     * {@code FSINDEX_*} variables are left alone: tools built on fsindex may define their own.
     */
    public static void applyEnvironment(FsIndex.Builder b, Map<String, String> env) {
        Map<Key, String> given = new LinkedHashMap<>();
        for (Key k : Key.values()) {
            String value = env.get(k.variable);
            if (value != null && !value.isEmpty()) {
                given.put(k, value);
            }
        }
        apply(b, given, true);
    }

    private static void apply(FsIndex.Builder b, Map<Key, String> given, boolean environment) {
        if (given.containsKey(Key.RETRY_TIMEOUT) && given.containsKey(Key.RETRY_TIMEOUT_SECONDS)) {
            throw new FsIndexConfigurationException("both " + name(Key.RETRY_TIMEOUT, environment) + " and "
                    + name(Key.RETRY_TIMEOUT_SECONDS, environment) + " are set; set only "
                    + name(Key.RETRY_TIMEOUT, environment));
        }
        given.forEach((k, value) -> {
            try {
                k.apply.accept(b, value);
            } catch (FsIndexConfigurationException e) {
                // the builder's message says what is wrong and what is accepted; this adds where the value came from
                throw new FsIndexConfigurationException(name(k, environment) + ": " + e.getMessage(), e);
            }
        });
    }

    private static String name(Key k, boolean environment) {
        return environment ? k.variable : k.property;
    }

    private static SchemaMode schemaMode(String value) {
        String v = value.strip();
        for (SchemaMode mode : SchemaMode.values()) {
            if (mode.name().equalsIgnoreCase(v)) {
                return mode;
            }
        }
        throw new FsIndexConfigurationException("'" + value + "' is not a schema mode; expected migrate (create and"
                + " upgrade the tables) or validate (only check them)");
    }

    private static ScanIdAllocation scanIdAllocation(String value) {
        String v = value.strip();
        for (ScanIdAllocation allocation : ScanIdAllocation.values()) {
            if (allocation.name().equalsIgnoreCase(v)) {
                return allocation;
            }
        }
        throw new FsIndexConfigurationException("'" + value + "' is not a scan id allocation; expected ordered (a"
                + " counter row keeps ids in start order on any engine) or native (the engine's own allocator)");
    }

    private static Duration seconds(String value) {
        String v = value.strip();
        if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                throw new FsIndexConfigurationException("'" + value + "' is too many seconds", e);
            }
        }
        return Durations.parse(v);
    }

    private static boolean bool(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("on")) {
            return true;
        }
        if (v.equalsIgnoreCase("false") || v.equalsIgnoreCase("off")) {
            return false;
        }
        throw new FsIndexConfigurationException("'" + value + "' is not on or off; expected true or false");
    }

    private static int poolSize(String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new FsIndexConfigurationException("'" + value + "' is not a whole number; expected a number of"
                    + " connections, at least 1", e);
        }
    }

    private static long count(String value) {
        try {
            return Long.parseLong(value.strip().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new FsIndexConfigurationException("'" + value + "' is not a whole number; expected a number of"
                    + " changes, at least 1", e);
        }
    }
}
