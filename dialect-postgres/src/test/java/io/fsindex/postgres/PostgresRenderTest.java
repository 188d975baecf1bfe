package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.SampleStatements;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The exact SQL PostgreSQL receives for each {@link io.fsindex.core.spi.Dialect} statement, rendered as fsindex
 * renders it (fsindex then replaces each {@code :name} with a positional parameter). A change to a statement, or to
 * how jOOQ renders it, shows up here as a diff to review, not as a behaviour change found later.
 */
class PostgresRenderTest {
    /** Content values survive an update only while kind, size and mtime stay the same; assigned before those. */
    private static final String KEEP_CONTENT = "fingerprint = case when (fsindex_files.kind = :kind"
            + " and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.fingerprint end,"
            + " content_hash = case when (fsindex_files.kind = :kind and fsindex_files.size = :size"
            + " and fsindex_files.mtime = :mtime) then fsindex_files.content_hash end, ";

    private final PostgresDialect dialect = new PostgresDialect();
    private final FsTables t = new FsTables("fsindex_");
    private final DSLContext ctx = DSL.using(SQLDialect.POSTGRES, new Settings()
            .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
            .withRenderNamedParamPrefix(":"));

    /**
     * Rows by ids a select gives (a sweep's or purge's subtree): {@code id in} a derived table, which PostgreSQL
     * plans as a join.
     */
    @Test
    void rowsByIdsAreDeletedAndUpdatedWhereIdIsInTheSelectedIds() {
        assertThat(render(SampleStatements.subtreeDelete(dialect, t))).isEqualTo(
                "delete from fsindex_files where id in (select ids.id from (with recursive gone(id, depth) "
                + "as (select id, 0 from fsindex_files where id = :top union all select f.id, (gone.depth + "
                + "1) from fsindex_files as f join gone on f.parent = gone.id) select gone.id from gone) as "
                + "ids)");
        assertThat(render(SampleStatements.subtreeUpdate(dialect, t))).isEqualTo(
                "update fsindex_files set gone_at = :now where (gone_at is null and id in (select ids.id "
                + "from (with recursive gone(id, depth) as (select id, 0 from fsindex_files where id = :top "
                + "union all select f.id, (gone.depth + 1) from fsindex_files as f join gone on f.parent = "
                + "gone.id) select gone.id from gone) as ids))");
    }

    private String render(Query q) {
        return ctx.renderNamedParams(q);
    }

    @Test
    void upsertChildLocksTheParentRowItChecks() {
        assertThat(render(dialect.statements().upsertChild(t))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select :parent, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + " where exists (select 1 as one from fsindex_files as p"
                + " where (p.id = :parent and p.listed_by <= :scan) for share)"
                + " on conflict (parent, name) do update set "
                + KEEP_CONTENT + "kind = :kind, size = :size, mtime = :mtime,"
                + " link_target = :link, file_key = :key, scan_id = :scan, stale = 0, gone_at = null"
                + " where fsindex_files.scan_id <= :scan");
    }

    @Test
    void upsertTopLevelNamesThePartialUniqueIndexAsItsArbiter() {
        assertThat(render(dialect.statements().upsertTopLevel(t))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select null, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0 where true"
                + " on conflict (name) where parent is null do update set "
                + KEEP_CONTENT + "kind = :kind, size = :size,"
                + " mtime = :mtime, link_target = :link, file_key = :key, scan_id = :scan, stale = 0, gone_at = null"
                + " where fsindex_files.scan_id <= :scan");
    }

    /** Other new names go a few hundred a statement; a name that appeared meanwhile is left alone. */
    @Test
    void insertChildrenLeavesAConflictingRowAlone() {
        assertThat(render(dialect.statements().insertChildren(t, 2))).isEqualTo("insert into fsindex_files"
                + " (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " values (:parent0, :name0, :kind0, :size0, :mtime0, :link0, :key0, :scan, 0,"
                + " :listed0),"
                + " (:parent1, :name1, :kind1, :size1, :mtime1, :link1, :key1, :scan, 0,"
                + " :listed1) on conflict do nothing");
    }

    /**
     * New children of a directory the scan inserted go in by COPY, with their ids, in BulkLoader's columns; the
     * change rows recording them follow by COPY too.
     */
    @Test
    void bulkLoaderCopiesTheLoadedColumns() {
        assertThat(PostgresCopyLoader.copyInto(t.filesName(), io.fsindex.core.spi.BulkLoader.columns(t))).isEqualTo(
                "COPY fsindex_files"
                + " (id, parent, name, kind, size, mtime, link_target, file_key, scan_id, listed_by) FROM STDIN");
        assertThat(PostgresCopyLoader.copyInto(t.changesName(), io.fsindex.core.spi.BulkLoader.changeColumns(t))).isEqualTo(
                "COPY fsindex_changes"
                + " (seq, entry, change_type, kind, dir, name, previous_path, scan_id, at) FROM STDIN");
    }

    /** After a scan that changed many rows; SKIP_LOCKED: what autovacuum is running already will do. */
    @Test
    void analyzeFiles() {
        assertThat(render(dialect.statements().analyzeFiles(t))).isEqualTo(
                "vacuum (analyze, skip_locked) fsindex_files, fsindex_changes, fsindex_change_dirs");
    }

    @Test
    void claimDirectory() {
        assertThat(render(dialect.statements().claimDirectory(t))).isEqualTo(
                "update fsindex_files set listed_by = :scan"
                + " where (id = :dir and listed_by <= :scan and kind = 'DIRECTORY')");
    }

    /** A write transaction locks the feed's head row before numbering its changes, so numbers follow commit order. */
    @Test
    void lockFeed() {
        assertThat(render(dialect.statements().lockFeed(t))).isEqualTo("select last_seq from fsindex_feed where id = 1 for update");
    }

    @Test
    void theTablePrefixNamesEveryTable() {
        assertThat(render(dialect.statements().upsertChild(new FsTables("app_idx_"))))
                .contains("insert into app_idx_files ", "from app_idx_files as p", "where app_idx_files.scan_id")
                .doesNotContain("fsindex_");
    }

    /** A listing's owner check reads its directories' rows {@code for share}: a newer claim waits for the write. */
    @Test
    void ownerGuardSharesTheDirectoryRows() {
        assertThat(render(dialect.statements().lockedWhereConcurrent(DSL.select(t.id, t.listedBy).from(t.files)
                .where(t.id.in(DSL.param("d0", Long.class), DSL.param("d1", Long.class))))))
                .isEqualTo("select id, listed_by from fsindex_files where id in (:d0, :d1) for share");
    }
}
