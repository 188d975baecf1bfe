package io.fsindex.core.scope;

import java.util.ArrayList;
import java.util.List;

/**
 * A root's exclude patterns, compiled: decides whether an entry is excluded, the last matching pattern winning as in
 * {@code .gitignore}. Immutable and thread-safe.
 */
public final class IgnoreRules {
    private final IgnorePattern[] patterns;
    /** Whether any pattern needs the path rather than the name alone. */
    private final boolean needsPath;

    private IgnoreRules(List<IgnorePattern> patterns) {
        this.patterns = patterns.toArray(new IgnorePattern[0]);
        boolean path = false;
        for (IgnorePattern p : patterns) {
            path |= !p.nameOnly;
        }
        this.needsPath = path;
    }

    /**
     * Compiles patterns in {@code .gitignore} syntax.
     *
     * @param lines      the patterns, in order
     * @param ignoreCase whether they ignore ASCII letter case
     * @return the rules
     */
    public static IgnoreRules compile(List<String> lines, boolean ignoreCase) {
        List<IgnorePattern> compiled = new ArrayList<>(lines.size());
        for (String line : lines) {
            IgnorePattern p = IgnorePattern.compile(line, ignoreCase);
            if (p != null) {
                compiled.add(p);
            }
        }
        return new IgnoreRules(compiled);
    }

    /** {@return true if no pattern can exclude anything} */
    public boolean isEmpty() {
        return patterns.length == 0;
    }

    /**
     * Decides one entry.
     *
     * @param parentPath the path of its directory relative to the root, {@code /}-separated, empty for the root
     * @param name       its name
     * @param directory  whether it is a directory
     * @return true if the last pattern that matches it excludes it
     */
    public boolean excludes(String parentPath, String name, boolean directory) {
        String path = needsPath ? (parentPath.isEmpty() ? name : parentPath + "/" + name) : null;
        for (int i = patterns.length - 1; i >= 0; i--) {
            IgnorePattern p = patterns[i];
            if (p.matches(path, name, directory)) {
                return !p.negated;
            }
        }
        return false;
    }
}
