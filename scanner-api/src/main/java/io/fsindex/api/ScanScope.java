package io.fsindex.api;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which part of a tree a root's scans index: exclude patterns with {@code .gitignore} semantics, whether to stay on
 * the root's filesystem, which filesystem types to leave out, and how deep to go. Immutable; start from
 * {@link #defaults()}:
 * <pre>{@code ScanScope.defaults().withExcludes("node_modules/", "*.tmp", "!keep.tmp").withOneFileSystem(true)}</pre>
 * The rules are stored with the index for the root they are set on ({@code FsIndex.setScope}), and every scan of that
 * root or of a path below it, from any process, applies them.
 *
 * <p>Precedence, for each entry below the root: a directory deeper than {@code maxDepth} is recorded but not listed;
 * a directory on another filesystem than its parent (a mount point) is recorded but not listed if
 * {@code oneFileSystem} is set or its filesystem type is in {@code prunedFsTypes}; otherwise the exclude patterns
 * decide, the last pattern that matches the entry winning (a {@code !} pattern re-includes). An excluded directory is
 * not listed, so nothing below it is ever read, and nothing below it can be re-included.
 *
 * @param excludes      patterns in {@code .gitignore} syntax, relative to the root: {@code *}, {@code ?},
 *                      {@code [a-z]}, {@code **}, a leading {@code /} anchors at the root, a trailing {@code /}
 *                      matches directories only, {@code !} re-includes, {@code \} quotes the next character; blank
 *                      lines and lines starting with {@code #} are ignored
 * @param ignoreCase    whether the patterns match names regardless of ASCII letter case (like git's
 *                      {@code core.ignoreCase})
 * @param oneFileSystem record directories on other filesystems than the root's (mount points) but do not list them
 * @param prunedFsTypes filesystem types (as {@code /proc/mounts} names them) whose mount points are recorded but
 *                      not listed; {@link #DEFAULT_PRUNED_FS_TYPES} by default
 * @param maxDepth      how many levels below the root are recorded: 1 records the root's entries but lists none of
 *                      its subdirectories; {@link #UNLIMITED} by default
 */
public record ScanScope(List<String> excludes, boolean ignoreCase, boolean oneFileSystem, Set<String> prunedFsTypes,
                        int maxDepth) {

    /** No depth limit. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * The filesystem types left out by default: kernel and virtual filesystems with nothing worth indexing, like
     * updatedb's {@code PRUNEFS}, but not network filesystems, {@code tmpfs} or removable media, which
     * applications index on purpose.
     */
    public static final Set<String> DEFAULT_PRUNED_FS_TYPES = Set.copyOf(new TreeSet<>(List.of("autofs",
            "binfmt_misc", "bpf", "cgroup", "cgroup2", "configfs", "debugfs", "devpts", "devtmpfs", "efivarfs",
            "fusectl", "hugetlbfs", "mqueue", "nsfs", "proc", "pstore", "rpc_pipefs", "securityfs", "selinuxfs",
            "sysfs", "tracefs")));

    private static final ScanScope DEFAULTS = new ScanScope(List.of(), false, false, DEFAULT_PRUNED_FS_TYPES,
            UNLIMITED);

    /**
     * Checks and copies the rules.
     *
     * @param excludes      patterns in {@code .gitignore} syntax, relative to the root
     * @param ignoreCase    whether the patterns ignore ASCII letter case
     * @param oneFileSystem record mount points below the root but do not list them
     * @param prunedFsTypes filesystem types whose mount points are recorded but not listed
     * @param maxDepth      how many levels below the root are recorded, at least 1
     * @throws IllegalArgumentException if a pattern holds a line break or NUL, a filesystem type is blank, or
     *                                  {@code maxDepth} is below 1
     */
    public ScanScope {
        excludes = List.copyOf(Objects.requireNonNull(excludes, "excludes"));
        for (String p : excludes) {
            if (p.indexOf('\n') >= 0 || p.indexOf('\r') >= 0 || p.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("an exclude pattern cannot hold a line break or NUL: "
                        + p.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0"));
            }
        }
        Set<String> types = new TreeSet<>();
        for (String type : Objects.requireNonNull(prunedFsTypes, "prunedFsTypes")) {
            if (type.isBlank() || type.chars().anyMatch(c -> c == ',' || Character.isWhitespace(c))) {
                throw new IllegalArgumentException("not a filesystem type: '" + type + "'");
            }
            types.add(type);
        }
        prunedFsTypes = java.util.Collections.unmodifiableSet(types);
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
        }
    }

    /**
     * No patterns, every filesystem except {@link #DEFAULT_PRUNED_FS_TYPES}, no depth limit: what a root without
     * stored rules gets.
     *
     * @return the default rules
     */
    public static ScanScope defaults() {
        return DEFAULTS;
    }

    /**
     * @param patterns exclude patterns in {@code .gitignore} syntax, in order (the last that matches wins)
     * @return these rules with those patterns instead
     */
    public ScanScope withExcludes(String... patterns) {
        return withExcludes(List.of(patterns));
    }

    /**
     * @param patterns exclude patterns in {@code .gitignore} syntax, in order (the last that matches wins)
     * @return these rules with those patterns instead
     */
    public ScanScope withExcludes(List<String> patterns) {
        return new ScanScope(patterns, ignoreCase, oneFileSystem, prunedFsTypes, maxDepth);
    }

    /**
     * @param ignore whether the patterns ignore ASCII letter case
     * @return these rules with that choice
     */
    public ScanScope withIgnoreCase(boolean ignore) {
        return new ScanScope(excludes, ignore, oneFileSystem, prunedFsTypes, maxDepth);
    }

    /**
     * @param one whether mount points below the root are recorded but not listed
     * @return these rules with that choice
     */
    public ScanScope withOneFileSystem(boolean one) {
        return new ScanScope(excludes, ignoreCase, one, prunedFsTypes, maxDepth);
    }

    /**
     * @param types filesystem types whose mount points are recorded but not listed (empty: none)
     * @return these rules with those types instead
     */
    public ScanScope withPrunedFsTypes(Set<String> types) {
        return new ScanScope(excludes, ignoreCase, oneFileSystem, types, maxDepth);
    }

    /**
     * @param depth how many levels below the root are recorded (at least 1), or {@link #UNLIMITED}
     * @return these rules with that limit
     */
    public ScanScope withMaxDepth(int depth) {
        return new ScanScope(excludes, ignoreCase, oneFileSystem, prunedFsTypes, depth);
    }

    /** {@return true if these rules are the defaults} */
    public boolean isDefault() {
        return equals(DEFAULTS);
    }
}
