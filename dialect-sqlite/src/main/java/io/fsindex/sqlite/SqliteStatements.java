package io.fsindex.sqlite;

import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The statements SQLite needs its own way: new rows numbered by the scan, a plain read of the feed's head (the
 * write lock is held already), and SQLite's cascade depth. The rest is the standard rendering.
 */
final class SqliteStatements implements DialectStatements {

    /** One: SQLite has no round trips to save, and prepares a join of many tables for longer than it runs. */
    @Override
    public int namesPerPathStatement() {
        return 1;
    }

    /**
     * What SQLite would number the next row after, as {@code AUTOINCREMENT} does: the larger of the table's
     * {@code sqlite_sequence} entry and its largest id. Every write transaction holds SQLite's one write lock from its
     * {@code BEGIN IMMEDIATE} ({@link SqliteConnections#begin}), so nothing else inserts between this read and the
     * insert numbered from it, and new rows go in without a {@code RETURNING} to read.
     */
    @Override
    public Query lastFileId(FsTables t) {
        return DSL.resultQuery("select max(coalesce((select seq from sqlite_sequence where name = {0}), 0), "
                + "coalesce((select max({1}) from {2}), 0))", DSL.inline(t.files.getName()), t.id, t.files);
    }

    /** A plain read: {@code BEGIN IMMEDIATE} ({@link SqliteConnections#begin}) holds the one write lock already. */
    @Override
    public Query lockFeed(FsTables t) {
        return DSL.select(t.feedLastSeq).from(t.feed).where(t.feedId.eq(DSL.inline(1)));
    }

    /** SQLite runs a cascade like a trigger, and stops nesting those at 1000 levels (SQLITE_MAX_TRIGGER_DEPTH). */
    @Override
    public int maxCascadeDepth() {
        return 500;
    }
}
