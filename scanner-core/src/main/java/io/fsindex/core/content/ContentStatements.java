package io.fsindex.core.content;

import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import org.jooq.Condition;
import org.jooq.DSLContext;

/** The statements of content hashing and garbage collection, rendered once for one dialect and table prefix. */
public final class ContentStatements {
    /** Rows read per page, by content hashing and by the collector. */
    static final int PAGE = 256;

    /** A directory's file rows lacking a fingerprint: {@code id, name, size, mtime}, by id after {@code :after}. */
    final Sql unfingerprinted;
    /** A directory's file rows lacking a fingerprint or a content hash. */
    final Sql unhashed;
    final Sql storeFingerprint;
    final Sql storeFull;
    /** Inserts a content row, or clears the collector's mark on the existing one (it is referenced again). */
    final Sql upsertContent;

    final Sql selectContents;
    final Sql deleteExpired;
    final Sql deleteContent;
    final Sql markUnused;
    final Sql unmark;

    public ContentStatements(Dialect dialect, FsTables t) {
        DSLContext ctx = Statements.context(dialect);
        // Paged by name, the order of the (parent, name) key, which every engine then reads from :after on. Paged by
        // id, MySQL and MariaDB, with the statistics of a table still growing, read the primary key from :after on
        // instead, through rows of every directory: a first scan of 250,000 entries with fingerprints took 100 s on
        // MariaDB (6 s on SQLite), 0.6 s per directory late in a 1M index.
        Condition files = t.parent.eq(param("dir", Long.class)).and(t.name.gt(param("after", String.class)))
                .and(t.kind.eq(inline("FILE"))).and(Statements.notGone(t));
        unfingerprinted = Sql.render(ctx, ctx.select(t.id, t.name, t.size, t.mtime).from(t.files)
                .where(files).and(t.fingerprint.isNull()).orderBy(t.name).limit(inline(PAGE)));
        unhashed = Sql.render(ctx, ctx.select(t.id, t.name, t.size, t.mtime).from(t.files)
                .where(files).and(t.fingerprint.isNull().or(t.contentHash.isNull())).orderBy(t.name)
                .limit(inline(PAGE)));
        // Only while the row still records the size and mtime the content was read with: a file a scan found
        // changed meanwhile keeps no value, and the next scan asking for one reads it again.
        Condition asRead = t.id.eq(param("id", Long.class)).and(t.kind.eq(inline("FILE")))
                .and(t.size.eq(param("size", Long.class))).and(t.mtime.eq(param("mtime", Long.class)));
        storeFingerprint = Sql.render(ctx, ctx.update(t.files).set(t.fingerprint, param("fingerprint", String.class))
                .where(asRead));
        storeFull = Sql.render(ctx, ctx.update(t.files).set(t.fingerprint, param("fingerprint", String.class))
                .set(t.contentHash, param("hash", String.class)).where(asRead));
        upsertContent = Sql.render(ctx, ctx.insertInto(t.contents, t.contentsHash, t.contentsSize, t.contentsCreatedAt)
                .values(param("hash", String.class), param("size", Long.class), param("now", Long.class))
                .onConflict(t.contentsHash).doUpdate().set(t.contentsUnusedSince, inline(null, Long.class)));

        Condition byHash = t.contentsHash.eq(param("hash", String.class));
        selectContents = Sql.render(ctx, ctx.select(t.contentsHash).from(t.contents)
                .where(t.contentsHash.gt(param("after", String.class))).orderBy(t.contentsHash).limit(inline(PAGE)));
        deleteExpired = Sql.render(ctx, ctx.deleteFrom(t.contents).where(byHash)
                .and(t.contentsUnusedSince.isNotNull()).and(t.contentsUnusedSince.le(param("cutoff", Long.class))));
        deleteContent = Sql.render(ctx, ctx.deleteFrom(t.contents).where(byHash));
        markUnused = Sql.render(ctx, ctx.update(t.contents).set(t.contentsUnusedSince, param("now", Long.class))
                .where(byHash).and(t.contentsUnusedSince.isNull()));
        unmark = Sql.render(ctx, ctx.update(t.contents).set(t.contentsUnusedSince, inline(null, Long.class))
                .where(byHash).and(t.contentsUnusedSince.isNotNull()));
    }
}
