package io.fsindex.sqlite;

import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The statements SQLite needs its own way: inserts that return their rows, a plain read of the feed's head (the
 * write lock is held already), and SQLite's cascade depth. The rest is the standard rendering.
 */
final class SqliteStatements implements DialectStatements {

    /** One: SQLite has no round trips to save, and prepares a join of many tables for longer than it runs. */
    @Override
    public int namesPerPathStatement() {
        return 1;
    }

    /**
     * One multi-row {@code INSERT … ON CONFLICT DO NOTHING RETURNING id, parent, name} (SQLite 3.35+): the scan
     * learns the new rows' ids from the insert itself and writes their feed rows from them, instead of reading the
     * rows back. Rows that conflict return nothing (and use up an id, which is never reused anyway).
     */
    @Override
    public Query insertChildrenReturning(FsTables t, int rows) {
        // Templated: jOOQ leaves RETURNING out of the SQL it renders for SQLite (it would emulate it when executing).
        return DSL.query("{0} returning id, parent, name", insertChildren(t, rows));
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
