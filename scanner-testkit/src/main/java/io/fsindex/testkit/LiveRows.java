package io.fsindex.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The index's live rows as one read left them ({@link IndexInvariants#rows}), found by path and by parent, so that a
 * check made after every step of a property try costs one statement instead of a lookup per path; what it finds is
 * what {@code lookup} and {@code children} would return from the same rows.
 */
final class LiveRows {
    private final Map<Long, IndexInvariants.RawRow> byId = new HashMap<>();
    private final Map<Long, List<IndexInvariants.RawRow>> byParent = new HashMap<>();

    LiveRows(List<IndexInvariants.RawRow> rows) {
        for (IndexInvariants.RawRow r : rows) {
            byId.put(r.id(), r);
            byParent.computeIfAbsent(r.parent(), k -> new ArrayList<>()).add(r);
        }
    }

    /** The row of id {@code id}, or null if no live row has it. */
    IndexInvariants.RawRow byId(long id) {
        return byId.get(id);
    }

    /** The live rows whose parent is {@code id}. */
    List<IndexInvariants.RawRow> children(long id) {
        return byParent.getOrDefault(id, List.of());
    }

    /** The row at absolute path {@code path}, or null if there is none (0 is the parent of top-level rows). */
    IndexInvariants.RawRow at(Path path) {
        IndexInvariants.RawRow row = child(0, path.getRoot().toString());
        for (int i = 0; row != null && i < path.getNameCount(); i++) {
            row = child(row.id(), path.getName(i).toString());
        }
        return row;
    }

    /**
     * Every live row below directory {@code dir}, by its path relative to {@code dir}; fails if there are live rows
     * but none at {@code dir}, so that a check reading these can never pass for want of finding them.
     */
    Map<String, IndexInvariants.RawRow> below(Path dir) {
        IndexInvariants.RawRow top = at(dir);
        if (top == null && !byId.isEmpty()) {
            throw new IllegalStateException("no live row at " + dir + " among " + byId.size() + " live rows");
        }
        Map<String, IndexInvariants.RawRow> out = new HashMap<>();
        if (top != null) {
            collect(top.id(), "", out);
        }
        return out;
    }

    private void collect(long dir, String prefix, Map<String, IndexInvariants.RawRow> out) {
        for (IndexInvariants.RawRow r : children(dir)) {
            String path = prefix + r.name();
            out.put(path, r);
            if (r.kind().equals("DIRECTORY")) {
                collect(r.id(), path + "/", out);
            }
        }
    }

    private IndexInvariants.RawRow child(long parent, String name) {
        for (IndexInvariants.RawRow r : children(parent)) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }
}
