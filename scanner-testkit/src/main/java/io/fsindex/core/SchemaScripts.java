package io.fsindex.core;

import io.fsindex.core.schema.ReferenceMode;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.schema.TablePrefixLimit;
import io.fsindex.core.spi.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Applies a dialect's schema scripts by plain JDBC, as an older fsindex would have left a database. */
public final class SchemaScripts {
    private SchemaScripts() {
    }

    /** Runs the scripts of versions {@code from} to {@code to} of the dialect serving {@code jdbcUrl}. */
    public static void apply(String jdbcUrl, String user, String password, String prefix, int from, int to)
            throws SQLException {
        apply(jdbcUrl, user, password, prefix, from, to, false);
    }

    /**
     * Runs the scripts of versions {@code from} to {@code to} that an index built by {@code b} would run (its URL,
     * user, password, table prefix and reference mode).
     */
    public static void apply(FsIndex.Builder b, int from, int to) throws SQLException {
        IndexConfig c = b.config();
        apply(c.jdbcUrl(), c.user(), c.password(), c.tablePrefix(), from, to, c.plainForeignKeys());
    }

    private static void apply(String jdbcUrl, String user, String password, String prefix, int from, int to,
                              boolean plainForeignKeys) throws SQLException {
        Dialect dialect = Dialects.forUrl(jdbcUrl);
        ReferenceMode mode = new ReferenceMode(dialect, plainForeignKeys);
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password); Statement s = c.createStatement()) {
            for (int v = from; v <= to; v++) {
                int version = v;
                String script = mode.script(v).orElseThrow(() -> new IllegalArgumentException(
                        dialect.name() + " has no schema script for version " + version));
                for (String sql : SchemaManager.statements(script, prefix)) {
                    s.execute(sql);
                }
            }
        }
    }

    /**
     * The longest table prefix the dialect serving {@code jdbcUrl} takes, or {@link Integer#MAX_VALUE} if its engine
     * has no limit on names.
     */
    public static int longestTablePrefix(String jdbcUrl) {
        return TablePrefixLimit.longestPrefix(Dialects.forUrl(jdbcUrl));
    }

    /** The schema version this build of fsindex writes. */
    public static int currentVersion() {
        return SchemaManager.CURRENT_VERSION;
    }
}
