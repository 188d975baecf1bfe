package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real database the conformance suite runs against. One instance serves a whole test class; every index the suite
 * opens gets table names with a prefix of its own, so tests never see each other's rows and no server is started per
 * test.
 *
 * @param jdbcUrl  the database's JDBC URL
 * @param user     user name, or {@code null}
 * @param password password, or {@code null}
 * @param settings further {@code fsindex.*} properties every index the suite opens here gets (a mode such as
 *                 {@code fsindex.plainForeignKeys=true}), none by default
 */
public record TestDatabase(String jdbcUrl, String user, String password, Map<String, String> settings) {
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    public TestDatabase {
        settings = Map.copyOf(settings);
    }

    /** A database with no further settings. */
    public TestDatabase(String jdbcUrl, String user, String password) {
        this(jdbcUrl, user, password, Map.of());
    }

    /** The same database with {@code property} (an {@code fsindex.*} key) set to {@code value} for every index. */
    public TestDatabase with(String property, String value) {
        Map<String, String> more = new java.util.HashMap<>(settings);
        more.put(property, value);
        return new TestDatabase(jdbcUrl, user, password, more);
    }

    /** {@code b} with this database's {@link #settings}. */
    public FsIndex.Builder withSettings(FsIndex.Builder b) {
        Properties p = new Properties();
        p.putAll(settings);
        return b.properties(p);
    }

    /** A table prefix no other index in this JVM has used. */
    public static String freshPrefix() {
        return "t" + ProcessHandle.current().pid() + "_" + PREFIXES.incrementAndGet() + "_";
    }

    /** A builder for this database with the given table prefix. */
    public FsIndex.Builder builder(String tablePrefix) {
        return withSettings(FsIndex.builder().jdbcUrl(jdbcUrl).user(user).password(password).tablePrefix(tablePrefix));
    }

    /** The same settings as {@code fsindex.*} properties, e.g. for a child process. */
    public Properties properties(String tablePrefix) {
        Properties p = new Properties();
        p.setProperty("fsindex.url", jdbcUrl);
        if (user != null) {
            p.setProperty("fsindex.user", user);
        }
        if (password != null) {
            p.setProperty("fsindex.password", password);
        }
        p.setProperty("fsindex.tablePrefix", tablePrefix);
        p.putAll(settings);
        return p;
    }
}
