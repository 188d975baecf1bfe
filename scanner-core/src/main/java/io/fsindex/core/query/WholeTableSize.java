package io.fsindex.core.query;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectCount;
import static org.jooq.impl.DSL.table;

import io.fsindex.api.DirectorySize;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.spi.FsTables;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Name;
import org.jooq.impl.DSL;

/**
 * The size of a directory that holds every live row but its own ancestors, summed over the whole table in one pass
 * (which engines read sequentially, PostgreSQL with parallel workers) instead of walking its directories. The
 * statement checks, in the snapshot it sums, that nothing else is live — a scan of another root may have added rows
 * since the caller's check ({@link SoleSubtree}) — and then sums nothing, so the caller walks instead.
 */
final class WholeTableSize {
    private static final Name UP = name("up");
    private static final Name GUARD = name("g");

    private final Sql statement;

    WholeTableSize(DSLContext ctx, FsTables t) {
        Field<Long> dir = param("dir", Long.class);
        Field<Long> upId = field(name("up", "id"), Long.class);
        Field<Long> upParent = field(name("up", "parent"), Long.class);
        // up(id, parent): the directory, if live, and its live ancestors.
        CommonTableExpression<?> up = UP.fields("id", "parent").as(
                select(t.id, t.parent).from(t.files).where(t.id.eq(dir)).and(t.kind.eq(inline("DIRECTORY")))
                        .and(t.goneAt.isNull())
                        .unionAll(select(field(name("f", "id"), Long.class), field(name("f", "parent"), Long.class))
                                .from(t.files.as("f")).join(table(UP))
                                .on(field(name("f", "id"), Long.class).eq(upParent))
                                .where(field(name("f", "gone_at"), Long.class).isNull())));
        Field<Integer> chain = selectCount().from(table(UP)).asField();
        // The ancestors reach a top-level row, and the live rows without a parent or with a parent among them are
        // exactly the directory and its ancestors: then every other live row lies below the directory.
        Condition reachesTheTop = selectCount().from(table(UP)).where(upParent.isNull()).asField().eq(inline(1));
        Field<Integer> topLevel = selectCount().from(t.files.as("o"))
                .where(field(name("o", "parent"), Long.class).isNull())
                .and(field(name("o", "gone_at"), Long.class).isNull()).asField();
        Field<Integer> childrenOfAncestors = selectCount().from(t.files.as("o"))
                .where(field(name("o", "parent"), Long.class).in(select(upId).from(table(UP)).where(upId.ne(dir))))
                .and(field(name("o", "gone_at"), Long.class).isNull()).asField();
        CommonTableExpression<?> guard = GUARD.fields("sole", "chain").as(select(
                DSL.when(reachesTheTop.and(topLevel.plus(childrenOfAncestors).eq(chain)), inline(1))
                        .otherwise(inline(0)), chain));
        // The guard is read first (SQLite keeps a CROSS JOIN's order) and referenced once, so that engines decide it
        // once, before the table, and skip the table when it fails.
        statement = Sql.render(ctx, ctx.withRecursive(up, guard)
                .select(SizeSums.bytes().as("bytes"), SizeSums.files().as("files"),
                        SizeSums.directories().as("directories"), DSL.count().as("live"),
                        DSL.min(field(name("g", "chain"), Integer.class)).as("chain"))
                .from(table(GUARD).crossJoin(t.files.as("r")))
                .where(field(name("g", "sole"), Integer.class).eq(inline(1)))
                .and(field(name("r", "gone_at"), Long.class).isNull()));
    }

    /**
     * The size of directory {@code dir} (at {@code path}) from the whole table, or empty if it does not hold every
     * live row but its ancestors when the statement reads.
     */
    Optional<DirectorySize> read(Connection c, long dir, Path path) throws SQLException {
        try (Sql.Bound q = statement.prepare(c)) {
            q.set("dir", dir);
            try (ResultSet rs = q.statement.executeQuery()) {
                if (!rs.next() || rs.getLong("live") == 0) {
                    return Optional.empty();
                }
                // The directory and its ancestors are live directories among the rows summed.
                long directories = SizeSums.number(rs, "directories") - rs.getLong("chain");
                return Optional.of(new DirectorySize(dir, path, SizeSums.number(rs, "bytes"),
                        SizeSums.number(rs, "files"), directories));
            }
        }
    }
}
