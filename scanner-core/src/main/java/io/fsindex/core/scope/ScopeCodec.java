package io.fsindex.core.scope;

import io.fsindex.api.ScanScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes a root's rules as the text stored in the scopes table and reads them back: one {@code key=value} line each,
 * {@code exclude=} lines in order. Text rather than columns, so that a later rule needs no schema change; a key this
 * fsindex does not know fails the read, so an older fsindex never applies rules it does not understand. Internal.
 */
public final class ScopeCodec {
    private ScopeCodec() {
    }

    /**
     * @param scope the rules
     * @return their stored form
     */
    public static String encode(ScanScope scope) {
        StringBuilder s = new StringBuilder();
        s.append("ignoreCase=").append(scope.ignoreCase()).append('\n');
        s.append("oneFileSystem=").append(scope.oneFileSystem()).append('\n');
        s.append("maxDepth=").append(scope.maxDepth() == ScanScope.UNLIMITED ? "unlimited" : scope.maxDepth())
                .append('\n');
        s.append("prunedFsTypes=").append(String.join(",", scope.prunedFsTypes())).append('\n');
        for (String p : scope.excludes()) {
            s.append("exclude=").append(p).append('\n');
        }
        return s.toString();
    }

    /**
     * @param text the stored form
     * @return the rules
     * @throws IllegalArgumentException if the text is not a stored form this fsindex reads
     */
    public static ScanScope decode(String text) {
        ScanScope scope = ScanScope.defaults();
        List<String> excludes = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            String key = eq < 0 ? line : line.substring(0, eq);
            String value = eq < 0 ? "" : line.substring(eq + 1);
            switch (key) {
                case "ignoreCase" -> scope = scope.withIgnoreCase(Boolean.parseBoolean(value));
                case "oneFileSystem" -> scope = scope.withOneFileSystem(Boolean.parseBoolean(value));
                case "maxDepth" -> scope = scope.withMaxDepth(value.equals("unlimited") ? ScanScope.UNLIMITED
                        : Integer.parseInt(value));
                case "prunedFsTypes" -> {
                    Set<String> types = new TreeSet<>();
                    for (String t : value.split(",")) {
                        if (!t.isEmpty()) {
                            types.add(t);
                        }
                    }
                    scope = scope.withPrunedFsTypes(types);
                }
                case "exclude" -> excludes.add(value);
                default -> throw new IllegalArgumentException("unknown rule '" + key + "' in stored rules (written"
                        + " by a newer fsindex?)");
            }
        }
        return scope.withExcludes(excludes);
    }

    /**
     * @param scope the rules
     * @return them in one line, for messages
     */
    public static String describe(ScanScope scope) {
        List<String> parts = new ArrayList<>();
        parts.add(scope.excludes().isEmpty() ? "no exclude patterns" : "excludes " + scope.excludes());
        if (scope.ignoreCase()) {
            parts.add("ignoring case");
        }
        if (scope.oneFileSystem()) {
            parts.add("one filesystem");
        }
        parts.add(scope.prunedFsTypes().equals(ScanScope.DEFAULT_PRUNED_FS_TYPES) ? "default pruned filesystem types"
                : "pruned filesystem types " + scope.prunedFsTypes());
        if (scope.maxDepth() != ScanScope.UNLIMITED) {
            parts.add("max depth " + scope.maxDepth());
        }
        return String.join(", ", parts);
    }
}
