package io.fsindex.core.query;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.select;

import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import org.jooq.CommonTableExpression;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Table;

/**
 * Walks a subtree by its live directories only, so that a question about everything below a directory costs one
 * lookup per directory in the files table's tree index ({@code parent, kind} first), not one per entry; the entries
 * of each directory are then read from that index, whose columns answer sizes and the size and time ranges without
 * the table's rows.
 */
final class DirectoryWalk {
    /** The walk's name in a statement. */
    static final String NAME = "d";

    private DirectoryWalk() {
    }

    /**
     * A recursive common table expression {@code d(id, top)}: every live directory matching {@code anchor}, and every
     * live directory below one, with the id of the anchor it is below (or is). Use with {@code withRecursive}.
     */
    static CommonTableExpression<?> directories(FsTables t, DialectStatements own, Condition anchor) {
        return walk(t, own, anchor, new String[] {"id", "top"}, new Field<?>[] {t.id, t.id}, top());
    }

    /**
     * The walk {@code d(id, columns...)}: the live directories matching {@code anchor}, selecting {@code anchorColumns}
     * ({@code id} first), then each live directory {@code f} below one already walked, selecting its id and
     * {@code carried} (which may name {@code f} or the walk {@code d}); each step joined as {@code own} joins it.
     */
    private static CommonTableExpression<?> walk(FsTables t, DialectStatements own, Condition anchor,
                                                 String[] columns, Field<?>[] anchorColumns, Field<?>... carried) {
        Field<?>[] step = new Field<?>[carried.length + 1];
        step[0] = field(name("f", "id"), Long.class);
        System.arraycopy(carried, 0, step, 1, carried.length);
        return name(NAME).fields(columns).as(
                select(anchorColumns).from(t.files).where(anchor).and(isDirectory(t.kind)).and(t.goneAt.isNull())
                        .unionAll(select(step)
                                .from(own.walkStep(table(), own.filesByParent(t, "f"),
                                        field(name("f", "parent"), Long.class).eq(id())))
                                .where(isDirectory(field(name("f", "kind"), String.class)))
                                .and(field(name("f", "gone_at"), Long.class).isNull())));
    }

    /**
     * The rows of the files table, under {@code alias}, below the walk's directories: the walk read first ({@link
     * DialectStatements#rowsBelowWalk}), each directory's rows read as the dialect reads a walked directory's ({@link
     * DialectStatements#filesByParent}). The statement states {@code alias.parent = d.id} in its {@code WHERE}
     * clause.
     */
    static Table<?> rows(FsTables t, DialectStatements own, String alias) {
        return own.rowsBelowWalk(table(), own.filesByParent(t, alias),
                field(name(alias, "parent"), Long.class).eq(id()));
    }

    /** The walk as a table in a {@code FROM} clause. */
    static Table<?> table() {
        return org.jooq.impl.DSL.table(name(NAME));
    }

    static Field<Long> id() {
        return field(name(NAME, "id"), Long.class);
    }

    static Field<Long> top() {
        return field(name(NAME, "top"), Long.class);
    }

    private static Condition isDirectory(Field<String> kind) {
        return kind.eq(inline("DIRECTORY"));
    }
}
