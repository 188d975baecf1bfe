package io.fsindex.core.query;

import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.spi.FsTables;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;

/**
 * Tells whether a directory holds every live row of the index but its own ancestors (an index of one scanned root,
 * asked about that root), in a handful of lookups, one per level: then a question about everything below it is
 * cheaper answered from the whole table than by walking the directory. Each lookup reads at its own moment, so a
 * caller that must not be wrong checks again as it reads.
 */
final class SoleSubtree {
    private final Statements statements;
    private final Sql liveChildren;
    private final Sql liveTopLevel;

    SoleSubtree(DSLContext ctx, FsTables t, Statements statements) {
        this.statements = statements;
        liveChildren = Sql.render(ctx, ctx.select(t.id).from(t.files).where(t.parent.eq(param("dir", Long.class)))
                .and(t.goneAt.isNull()).limit(inline(2)));
        liveTopLevel = Sql.render(ctx, ctx.select(t.id).from(t.files).where(t.parent.isNull())
                .and(t.goneAt.isNull()).limit(inline(2)));
    }

    /**
     * Whether every live row lies below directory {@code dir} or on the way to it: it and each of its ancestors is
     * the only live child of its parent, and the top one the only live row without a parent.
     */
    boolean holdsAllButItsAncestors(Connection c, long dir) throws SQLException {
        List<Long> chain = new ArrayList<>();
        try (Sql.Bound q = statements.ancestors.prepare(c)) {
            q.set("id", dir);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    chain.add(rs.getLong("id"));
                }
            }
        }
        if (chain.isEmpty() || liveRows(c, liveTopLevel, 0) != 1) {
            return false;
        }
        for (int i = 0; i < chain.size() - 1; i++) {
            if (liveRows(c, liveChildren, chain.get(i)) != 1) {
                return false;
            }
        }
        return true;
    }

    /** How many live rows (0, 1, or 2 for more) {@code sql} finds below directory {@code dir}. */
    private static int liveRows(Connection c, Sql sql, long dir) throws SQLException {
        try (Sql.Bound q = sql.prepare(c)) {
            if (dir != 0) {
                q.set("dir", dir);
            }
            int n = 0;
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            return n;
        }
    }
}
