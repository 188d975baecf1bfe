package io.fsindex.mysql;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.SampleStatements;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** Renders a dialect's statements exactly as fsindex does (core's Statements.context), for the render tests. */
final class Rendered {
    private final DSLContext ctx;

    Rendered(Dialect dialect) {
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
        ctx = DSL.using(dialect.sqlDialect(), new Settings()
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
                .withRenderNamedParamPrefix(":"));
    }

    String sql(Query query) {
        return ctx.renderNamedParams(query);
    }

    /** A listing's owner check over two directories, as the dialect locks it. */
    String ownerGuard(Dialect dialect) {
        return sql(dialect.lockedWhereConcurrent(DSL.select(TABLES.id, TABLES.listedBy).from(TABLES.files)
                .where(TABLES.id.in(DSL.param("d0", Long.class), DSL.param("d1", Long.class)))));
    }

    /** The sweep's deletion of a subtree's rows by their ids. */
    String subtreeDelete(Dialect dialect) {
        return sql(SampleStatements.subtreeDelete(dialect, TABLES));
    }

    /** The sweep's marking of a subtree's rows gone, by their ids. */
    String subtreeUpdate(Dialect dialect) {
        return sql(SampleStatements.subtreeUpdate(dialect, TABLES));
    }

    static final FsTables TABLES = new FsTables("fsindex_");
}
