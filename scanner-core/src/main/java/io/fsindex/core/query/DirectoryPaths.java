package io.fsindex.core.query;

import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The paths of directories by id for one question, each directory read once: many at a time by id, a level of the
 * tree per statement ({@link #load}), so the paths of a page's entries cost a few statements however many
 * directories they sit in; and whether each lies at or below the question's directory, which a find that reads the
 * whole table instead of walking that directory checks its rows by.
 */
final class DirectoryPaths {
    private final ConnectionStatements prepared;
    private final Statements statements;
    /** The directory the question is about (0: none). */
    private final long top;
    private final Map<Long, Path> known = new HashMap<>();
    /** The known directories that are {@link #top} or below it. */
    private final Set<Long> belowTop = new HashSet<>();

    /** Reads through {@code prepared}, the statements of the question's connection, which its caller closes. */
    DirectoryPaths(ConnectionStatements prepared, Statements statements, long top) {
        this.prepared = prepared;
        this.statements = statements;
        this.top = top;
    }

    /**
     * Directory {@code id}'s path, read with its ancestors if not known yet; null if there is no such row (a sweep
     * deleted it since the row naming it was read).
     */
    Path of(long id) throws SQLException {
        Path cached = known.get(id);
        if (cached != null) {
            return cached;
        }
        Path path = null;
        boolean below = false;
        Sql.Bound q = prepared.q(statements.ancestors).set("id", id);
        try (ResultSet rs = q.statement.executeQuery()) {
            while (rs.next()) {
                long at = rs.getLong("id");
                String name = rs.getString("name");
                path = path == null ? Path.of(name) : path.resolve(name);
                below = below || at == top;
                remember(at, path, below);
            }
        }
        return path;
    }

    /** Whether directory {@code id} (whose path is known) is the question's directory or lies below it. */
    boolean isBelowTop(long id) {
        return belowTop.contains(id);
    }

    /** Reads the paths of those of {@code ids} not known yet, and of their unknown ancestors, a level at a time. */
    void load(Collection<Long> ids) throws SQLException {
        Map<Long, NameRow> read = new HashMap<>();
        List<Long> wanted = new ArrayList<>();
        for (long id : ids) {
            if (!known.containsKey(id) && !read.containsKey(id)) {
                read.put(id, null);
                wanted.add(id);
            }
        }
        while (!wanted.isEmpty()) {
            List<Long> parents = new ArrayList<>();
            int max = statements.namesOf.max();
            long[] chunk = new long[max];
            for (int from = 0; from < wanted.size(); from += max) {
                int n = Math.min(max, wanted.size() - from);
                for (int i = 0; i < n; i++) {
                    chunk[i] = wanted.get(from + i);
                }
                try (ResultSet rs = prepared.forIds(statements.namesOf, chunk, n).statement.executeQuery()) {
                    while (rs.next()) {
                        long parent = rs.getLong("parent");
                        read.put(rs.getLong("id"), new NameRow(parent, rs.getString("name")));
                        if (parent != 0 && !known.containsKey(parent) && !read.containsKey(parent)) {
                            read.put(parent, null);
                            parents.add(parent);
                        }
                    }
                }
            }
            wanted = parents;
        }
        for (long id : read.keySet()) {
            resolve(id, read);
        }
    }

    /** Puts together the path of {@code id} from the rows {@code read} and the known paths, parents first. */
    private void resolve(long id, Map<Long, NameRow> read) {
        Deque<Long> chain = new ArrayDeque<>();
        for (long at = id; !known.containsKey(at); ) {
            NameRow row = read.get(at);
            if (row == null) {
                return;     // gone since its child was read: so is the child, and nothing below it is returned
            }
            chain.push(at);
            if (row.parent() == 0) {
                break;
            }
            at = row.parent();
        }
        while (!chain.isEmpty()) {
            long at = chain.pop();
            NameRow row = read.get(at);
            long parent = row.parent();
            Path path = parent == 0 ? Path.of(row.name()) : known.get(parent).resolve(row.name());
            remember(at, path, at == top || parent != 0 && belowTop.contains(parent));
        }
    }

    /** A directory's parent (0 for a top-level row) and name, as read by id. */
    private record NameRow(long parent, String name) {
    }

    private void remember(long id, Path path, boolean below) {
        known.put(id, path);
        if (below && top != 0) {
            belowTop.add(id);
        }
    }
}
