package io.fsindex.testkit;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import java.util.Map;
import org.jooq.Query;
import org.jooq.Record1;
import org.jooq.Select;
import org.jooq.impl.DSL;

/**
 * Fixed calls of the {@link DialectStatements} methods that take a part of a statement, so that every dialect's
 * render test shows the same statement as its engine gets it.
 */
public final class SampleStatements {
    private SampleStatements() {
    }

    /** {@link DialectStatements#deleteFiles} of a subtree's rows, {@code :top} and every row below it, as the sweep does. */
    public static Query subtreeDelete(Dialect dialect, FsTables t) {
        return dialect.statements().deleteFiles(t, subtreeIds(dialect, t));
    }

    /** {@link DialectStatements#updateFiles} marking a subtree's live rows gone at {@code :now}, as the sweep does. */
    public static Query subtreeUpdate(Dialect dialect, FsTables t) {
        return dialect.statements().updateFiles(t, subtreeIds(dialect, t),
                Map.of(t.goneAt, DSL.param("now", Long.class)), t.goneAt.isNull());
    }

    /** The ids of {@code :top} and every row below it, walked as the dialect walks a subtree. */
    private static Select<Record1<Long>> subtreeIds(Dialect dialect, FsTables t) {
        return t.subtreeIds(t.id.eq(DSL.param("top", Long.class)), dialect.statements());
    }
}
