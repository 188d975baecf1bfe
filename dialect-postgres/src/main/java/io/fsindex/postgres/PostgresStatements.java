package io.fsindex.postgres;

import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.FsTables;
import org.jooq.Query;
import org.jooq.impl.DSL;

/**
 * The statements PostgreSQL needs its own way: guards and a sweep's reads that lock the rows they read (see
 * {@link PostgresDialect} for why), and {@code VACUUM (ANALYZE)} after a large scan. The rest is the standard rendering.
 */
final class PostgresStatements implements DialectStatements {

    /**
     * {@code VACUUM (ANALYZE)} of the files and the change tables. ANALYZE: autovacuum refreshes statistics at most
     * once a minute, and without them a rescan right after a cold scan plans each wave's read of a million-row table
     * as a sequential scan. VACUUM: until the new rows are vacuumed, every first read of them sets their hint bits
     * and no index-only scan skips the heap, so a watch's directory scans right after a cold scan ran several times
     * slower for about a minute, until autovacuum came by; vacuuming rows nobody has deleted is one quick pass.
     * SKIP_LOCKED: if autovacuum is at a table already, there is nothing to wait for.
     */
    @Override
    public Query analyzeFiles(FsTables t) {
        return DSL.query("vacuum (analyze, skip_locked) {0}, {1}, {2}", t.files, t.changes, t.changeDirs);
    }

    /**
     * Every guard (the conditional insert's parent check, a listing's owner check) reads its rows {@code FOR SHARE},
     * so it waits for a newer scan's uncommitted claim and then sees it (see the class comment).
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedWhereConcurrent(
            org.jooq.SelectConditionStep<R> guard) {
        return guard.forShare();
    }

    /**
     * A sweep's reads {@code FOR UPDATE}: a row another transaction is changing is waited for and then read in its
     * newest version, which READ COMMITTED's plain reads would not do.
     */
    @Override
    public <R extends org.jooq.Record> org.jooq.Select<R> lockedForWrite(org.jooq.SelectConditionStep<R> read) {
        return read.forUpdate();
    }
}
