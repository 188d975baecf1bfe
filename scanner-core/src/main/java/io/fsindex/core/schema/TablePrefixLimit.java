package io.fsindex.core.schema;

import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.core.spi.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a table prefix a dialect can take: every name fsindex gives a table, index, constraint, trigger or function
 * is the prefix and a suffix written in the dialect's schema scripts, and must fit the engine's identifier limit
 * ({@link Dialect#maxIdentifierLength}).
 */
public final class TablePrefixLimit {
    private static final Pattern DERIVED_NAME = Pattern.compile("\\$\\{prefix}([A-Za-z0-9_]*)");

    private TablePrefixLimit() {
    }

    /** The longest suffix the dialect's schema scripts append to the prefix, e.g. {@code scans_check_unreferenced}. */
    static String longestSuffix(Dialect dialect) {
        List<String> scripts = new ArrayList<>();
        for (int version = 1; version <= SchemaManager.CURRENT_VERSION; version++) {
            dialect.schemaScript(version).ifPresent(scripts::add);
        }
        dialect.createSchemaScript(SchemaManager.CURRENT_VERSION).ifPresent(scripts::add);
        String longest = "";
        for (String script : scripts) {
            Matcher m = DERIVED_NAME.matcher(script);
            while (m.find()) {
                if (m.group(1).length() > longest.length()) {
                    longest = m.group(1);
                }
            }
        }
        return longest;
    }

    /** The longest prefix the dialect can take, or {@link Integer#MAX_VALUE} if its engine has no limit. */
    public static int longestPrefix(Dialect dialect) {
        int limit = dialect.maxIdentifierLength();
        return limit <= 0 ? Integer.MAX_VALUE : Math.max(0, limit - longestSuffix(dialect).length());
    }

    /** Throws if a name derived from {@code prefix} would be longer than the dialect's engine keeps. */
    public static void check(Dialect dialect, String prefix) {
        int longestPrefix = longestPrefix(dialect);
        if (prefix.length() > longestPrefix) {
            String suffix = longestSuffix(dialect);
            throw new FsIndexConfigurationException("tablePrefix '" + prefix + "' is " + prefix.length()
                    + " characters long, too long for " + dialect.name() + ", whose names hold at most "
                    + dialect.maxIdentifierLength() + " characters: fsindex adds up to " + suffix.length()
                    + " characters to the prefix (" + prefix + suffix + "). Use a prefix of at most " + longestPrefix
                    + " characters");
        }
    }
}
