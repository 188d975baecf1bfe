package io.fsindex.testkit;

import io.fsindex.api.IndexReader;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the fault campaign checks after a fault, each check returning what is wrong (empty: all is well) so a
 * campaign can count failed trials and go on: the index equals the tree, no orphan or stale row is left, no scan is
 * left {@code RUNNING}, and no scan failed with an internal error (a {@link NullPointerException} and the like, as
 * opposed to a clear error about the database or the disk).
 */
public final class CampaignChecks {
    /** Exception class names that mean a bug in fsindex rather than a fault it reports. */
    private static final Pattern INTERNAL = Pattern.compile("(NullPointerException|ClassCastException"
            + "|IndexOutOfBoundsException|IllegalStateException|IllegalArgumentException|ConcurrentModificationException"
            + "|NoSuchElementException|ArithmeticException|UnsupportedOperationException|AssertionError"
            + "|StackOverflowError|Cannot invoke \"[^\"]*\" because)");

    private CampaignChecks() {
    }

    /** Differences between the index under {@code root} and the tree on disk, at most a few named. */
    public static List<String> indexEqualsTree(IndexReader index, Path root) {
        Map<String, String> disk = Trees.onDisk(root);
        Map<String, String> indexed = new java.util.TreeMap<>();
        collect(index, root, root, indexed);
        if (disk.equals(indexed)) {
            return List.of();
        }
        Set<String> missing = new TreeSet<>(disk.keySet());
        missing.removeAll(indexed.keySet());
        Set<String> extra = new TreeSet<>(indexed.keySet());
        extra.removeAll(disk.keySet());
        Set<String> different = new TreeSet<>();
        disk.forEach((p, v) -> {
            if (indexed.containsKey(p) && !indexed.get(p).equals(v)) {
                different.add(p + " (disk " + v + ", index " + indexed.get(p) + ")");
            }
        });
        return List.of("the index differs from the tree: " + missing.size() + " missing " + some(missing) + ", "
                + extra.size() + " extra " + some(extra) + ", " + different.size() + " different " + some(different));
    }

    private static void collect(IndexReader index, Path root, Path dir, Map<String, String> out) {
        index.children(dir).forEach(e -> {
            out.put(root.relativize(e.path()).toString(),
                    e.kind() + (e.kind() == io.fsindex.api.FileKind.FILE ? ":" + e.size() : ""));
            if (e.kind() == io.fsindex.api.FileKind.DIRECTORY) {
                collect(index, root, e.path(), out);
            }
        });
    }

    private static String some(Set<String> paths) {
        return paths.isEmpty() ? "" : paths.stream().limit(3).toList().toString();
    }

    /** Rows below a missing parent or a non-directory, and rows still marked stale. */
    public static List<String> noOrphansOrStaleRows(RawIndex raw) throws SQLException {
        List<String> out = new ArrayList<>();
        long orphans = raw.orphans();
        if (orphans > 0) {
            out.add(orphans + " rows hang below a missing parent or a non-directory");
        }
        long stale = raw.staleRows();
        if (stale > 0) {
            out.add(stale + " rows are still marked stale after a clean full scan");
        }
        return out;
    }

    /** Scans still recorded {@code RUNNING}, each with its id and root. */
    public static List<String> noScanRunning(RawIndex raw) throws SQLException {
        List<String> running = new ArrayList<>();
        raw.forEachRow("SELECT id, root FROM ${prefix}scans WHERE state = 'RUNNING' ORDER BY id",
                row -> running.add("scan " + row.getLong(1) + " of " + row.getString(2)));
        return running.isEmpty() ? List.of() : List.of(running.size() + " scans are left RUNNING: " + running);
    }

    /** The state recorded for each scan, by id. */
    public static Map<Long, String> scanStates(RawIndex raw) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        raw.forEachRow("SELECT id, state FROM ${prefix}scans", row -> out.put(row.getLong(1), row.getString(2)));
        return out;
    }

    /** Scans whose recorded message names an internal error. */
    public static List<String> noInternalErrorRecorded(RawIndex raw) throws SQLException {
        List<String> out = new ArrayList<>();
        raw.forEachRow("SELECT id, state, message FROM ${prefix}scans WHERE message IS NOT NULL ORDER BY id", row -> {
            String message = row.getString(3);
            if (internalError(message) != null) {
                out.add("scan " + row.getLong(1) + " (" + row.getString(2) + ") recorded an internal error: "
                        + message);
            }
        });
        return out;
    }

    /** The internal error {@code text} (a log, a message) names, or null if it names none. */
    public static String internalError(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = INTERNAL.matcher(text);
        if (!m.find()) {
            return null;
        }
        int start = text.lastIndexOf('\n', m.start()) + 1;
        int end = text.indexOf('\n', m.end());
        return text.substring(start, end < 0 ? text.length() : end).strip();
    }

    /**
     * The internal error in {@code failure}'s chain of causes and suppressed exceptions, or null if it has none: an
     * unchecked exception or error of the Java platform itself ({@link NullPointerException},
     * {@link IllegalStateException}, {@link AssertionError} …), which means a bug, where a fault should give
     * fsindex's own exception over a database's or the disk's (a driver's own unchecked exceptions, such as MySQL
     * Connector/J's communications exception below its {@link SQLException}, are the database's).
     */
    public static Throwable internalError(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> pending = new ArrayList<>(List.of(failure));
        while (!pending.isEmpty()) {
            Throwable t = pending.remove(pending.size() - 1);
            if (t == null || !seen.add(t)) {
                continue;
            }
            boolean platform = t.getClass().getName().startsWith("java.");
            if (platform && (t instanceof RuntimeException || t instanceof Error)
                    && !(t instanceof java.io.UncheckedIOException)) {
                return t;
            }
            pending.add(t.getCause());
            pending.addAll(List.of(t.getSuppressed()));
        }
        return null;
    }

    /** Path by id of every entry in the index (orphans and rows below them are not), read from the raw rows. */
    public static Map<Long, String> indexById(RawIndex raw) throws SQLException {
        Map<Long, Object[]> rows = new HashMap<>();
        raw.forEachRow("SELECT id, COALESCE(parent, 0), name, CASE WHEN gone_at IS NULL THEN 0 ELSE 1 END"
                + " FROM ${prefix}files", rs -> rows.put(rs.getLong(1),
                new Object[] {rs.getLong(2), rs.getString(3), rs.getInt(4) != 0}));
        return FeedAudit.pathsById(rows);
    }
}
