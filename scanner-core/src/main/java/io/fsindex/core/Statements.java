package io.fsindex.core;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** Every statement fsindex runs, rendered once for one dialect and table prefix. */
final class Statements {
    static {
        // jOOQ only renders SQL here; its banner and tips would be noise in an application's log.
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    static final String FILE_COLUMNS = "id, parent, name, kind, size, mtime, link_target, scan_id, listed_by, stale";

    final FsTables t;
    final Sql upsertChild;
    final Sql insertChild;
    final Sql upsertTopLevel;
    final Sql claimDirectory;
    final Sql readListedBy;
    final Sql updateChild;
    final Sql sweep;
    final Sql countSweep;
    final Sql sweepBelow;
    final Sql deleteChildren;
    final Sql deleteDescendantsBelow;
    final Sql countDescendants;
    final Sql selectChildren;
    final Sql selectChildDirectories;
    final Sql selectChild;
    final Sql selectTopLevel;
    final Sql markStale;
    final Sql keepRow;
    final Sql unmarkAll;
    final Sql insertScan;
    final Sql finishScan;

    Statements(Dialect dialect, FsTables t) {
        this.t = t;
        DSLContext ctx = context(dialect);
        Field<Long> scan = param("scan", Long.class);
        upsertChild = Sql.render(ctx, dialect.upsertChild(t));
        insertChild = Sql.render(ctx, dialect.insertChild(t));
        upsertTopLevel = Sql.render(ctx, dialect.upsertTopLevel(t));
        claimDirectory = Sql.render(ctx, dialect.claimDirectory(t));
        readListedBy = Sql.render(ctx, dialect.readListedBy(t));
        updateChild = Sql.render(ctx, ctx.update(t.files)
                .set(t.fingerprint, t.keptIfUnchanged(t.fingerprint))
                .set(t.contentHash, t.keptIfUnchanged(t.contentHash)).set(t.kind, param("kind", String.class))
                .set(t.size, param("size", Long.class)).set(t.mtime, param("mtime", Long.class))
                .set(t.linkTarget, param("link", String.class)).set(t.scanId, scan).set(t.stale, inline(0))
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        sweep = Sql.render(ctx, dialect.sweep(t));

        Field<Long> goneId = field(name("gone", "id"), Long.class);
        Field<Integer> goneDepth = field(name("gone", "depth"), Integer.class);
        countSweep = Sql.render(ctx, ctx.withRecursive(t.staleSubtrees())
                .select(org.jooq.impl.DSL.countDistinct(goneId), org.jooq.impl.DSL.max(goneDepth))
                .from(table(name("gone"))));
        sweepBelow = Sql.render(ctx, dialect.sweepBelow(t));
        Condition childrenOfDir = t.parent.eq(param("dir", Long.class));
        deleteChildren = Sql.render(ctx, ctx.deleteFrom(t.files).where(childrenOfDir));
        deleteDescendantsBelow = Sql.render(ctx, t.deleteDeeperThan(childrenOfDir));
        countDescendants = Sql.render(ctx, ctx.withRecursive(t.subtrees(childrenOfDir))
                .select(org.jooq.impl.DSL.countDistinct(goneId), org.jooq.impl.DSL.max(goneDepth))
                .from(table(name("gone"))));

        selectChildren = Sql.render(ctx, selectFiles(ctx).where(t.parent.eq(param("dir", Long.class))));
        selectChildDirectories = Sql.render(ctx, ctx.select(t.id, t.name).from(t.files)
                .where(t.parent.eq(param("dir", Long.class))).and(t.kind.eq(inline("DIRECTORY"))));
        selectChild = Sql.render(ctx, selectFiles(ctx).where(t.parent.eq(param("parent", Long.class)))
                .and(t.name.eq(param("name", String.class))));
        selectTopLevel = Sql.render(ctx, selectFiles(ctx).where(t.parent.isNull())
                .and(t.name.eq(param("name", String.class))));
        markStale = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(1)).set(t.scanId, scan)
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        keepRow = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(0)).set(t.scanId, scan)
                .where(t.id.eq(param("id", Long.class))).and(t.scanId.le(scan)));
        unmarkAll = Sql.render(ctx, ctx.update(t.files).set(t.stale, inline(0))
                .where(t.stale.eq(inline(1))).and(t.scanId.eq(scan)));
        insertScan = Sql.render(ctx, ctx.insertInto(t.scans, t.scanRoot, t.scanState, t.scanStartedAt)
                .values(param("root", String.class), inline("RUNNING"), param("now", Long.class)));
        finishScan = Sql.render(ctx, ctx.update(t.scans)
                .set(t.scanState, param("state", String.class))
                .set(t.scanFinishedAt, param("now", Long.class))
                .set(t.scanAdded, param("added", Long.class))
                .set(t.scanUpdated, param("updated", Long.class))
                .set(t.scanDeleted, param("deleted", Long.class))
                .set(t.scanErrors, param("errors", Long.class))
                .set(t.scanMessage, param("message", String.class))
                .where(t.scanRowId.eq(scan)));
    }

    private org.jooq.SelectJoinStep<?> selectFiles(DSLContext ctx) {
        return ctx.select(t.id, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget, t.scanId, t.listedBy,
                t.stale).from(t.files);
    }

    /** The jOOQ context fsindex renders with: unquoted lower-case names, so hand-written DDL matches. */
    static DSLContext context(Dialect dialect) {
        return DSL.using(dialect.sqlDialect(), new Settings()
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
                .withRenderNamedParamPrefix(":")
                .withExecuteLogging(false));
    }
}
