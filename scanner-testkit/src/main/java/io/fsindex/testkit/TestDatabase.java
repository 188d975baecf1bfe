package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
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
 */
public record TestDatabase(String jdbcUrl, String user, String password) {
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    /** A table prefix no other index in this JVM has used. */
    public static String freshPrefix() {
        return "t" + ProcessHandle.current().pid() + "_" + PREFIXES.incrementAndGet() + "_";
    }

    /** A builder for this database with the given table prefix. */
    public FsIndex.Builder builder(String tablePrefix) {
        return FsIndex.builder().jdbcUrl(jdbcUrl).user(user).password(password).tablePrefix(tablePrefix);
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
        return p;
    }
}
