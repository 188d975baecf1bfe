package io.fsindex.core.query;

import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

import io.fsindex.core.internal.Sql;
import io.fsindex.core.spi.FsTables;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Finds below a directory whose subtree holds a large part of the index, answered from whole-table passes instead
 * of a recursive walk down the subtree, where the find must read every row below (it has no size or time range
 * the tree index answers). A walk then costs a row lookup per row below the directory; a pass reads the table in
 * order, several times cheaper per row, so it wins once the subtree is a fair share of the table. {@link #isLarge}
 * decides with a walk cut short at that share.
 */
final class LargeSubtrees {
    /** A subtree is large when it holds more than this fraction of the table's rows. */
    private static final int SHARE_DIVISOR = 8;
    /** Subtrees smaller than this are walked whatever the table's size: a walk of them is cheap anyway. */
    private static final long MIN_LARGE = 5_000;

    private final Sql tableSize;
    private final Sql subtreeCount;
    private final Sql directories;

    LargeSubtrees(DSLContext ctx, FsTables t, io.fsindex.core.spi.DialectStatements own) {
        tableSize = Sql.render(ctx, ctx.select(DSL.max(t.id)).from(t.files));
        subtreeCount = Sql.render(ctx, ctx.selectCount().from(
                ctx.withRecursive(t.subtrees(t.id.eq(param("top", Long.class)), own))
                        .select(DSL.field(DSL.name("gone", "id"), Long.class)).from(DSL.table(DSL.name("gone")))
                        .limit(param("cap", Long.class)).asTable("walked")));
        directories = Sql.render(ctx, ctx.select(t.id, t.parent).from(t.files)
                .where(t.kind.eq(inline("DIRECTORY"))).and(t.goneAt.isNull()));
    }

    /** Whether the subtree below directory {@code top} holds a large part of the table (see the class comment). */
    boolean isLarge(Connection c, long top) throws SQLException {
        long rows;
        try (Sql.Bound q = tableSize.prepare(c); ResultSet rs = q.statement.executeQuery()) {
            rows = rs.next() ? rs.getLong(1) : 0;
        }
        long cap = Math.max(MIN_LARGE, rows / SHARE_DIVISOR);
        if (rows <= cap) {
            return false;
        }
        try (Sql.Bound q = subtreeCount.prepare(c)) {
            q.set("top", top).set("cap", cap);
            try (ResultSet rs = q.statement.executeQuery()) {
                return rs.next() && rs.getLong(1) >= cap;
            }
        }
    }

    /** The ids of directory {@code top} and of every live directory below it, read in one pass. */
    Set<Long> directoriesBelow(Connection c, long top) throws SQLException {
        Map<Long, List<Long>> children = new HashMap<>();
        try (Sql.Bound q = directories.prepare(c); ResultSet rs = q.statement.executeQuery()) {
            while (rs.next()) {
                long parent = rs.getLong("parent");
                if (!rs.wasNull()) {
                    children.computeIfAbsent(parent, k -> new ArrayList<>()).add(rs.getLong("id"));
                }
            }
        }
        Set<Long> below = new HashSet<>();
        Deque<Long> todo = new ArrayDeque<>(List.of(top));
        while (!todo.isEmpty()) {
            long dir = todo.pop();
            if (below.add(dir)) {
                todo.addAll(children.getOrDefault(dir, List.of()));
            }
        }
        return below;
    }
}
