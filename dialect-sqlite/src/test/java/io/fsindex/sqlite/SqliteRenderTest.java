package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.SampleStatements;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.conf.ParamType;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact SQL of the protocol's statements as SQLite receives them, so a reviewer can read what runs. They are
 * rendered as core renders them (same jOOQ settings as {@code Statements.context}); core then replaces each
 * {@code :name} with {@code ?} (its {@code SqlTest} checks that this equals jOOQ's own positional rendering).
 */
class SqliteRenderTest {
    /** Content values survive an update only while kind, size and mtime stay the same; assigned before those. */
    private static final String KEEP_CONTENT = "fingerprint = case when (fsindex_files.kind = :kind"
            + " and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.fingerprint end,"
            + " content_hash = case when (fsindex_files.kind = :kind and fsindex_files.size = :size"
            + " and fsindex_files.mtime = :mtime) then fsindex_files.content_hash end, ";

    private final Dialect dialect = new SqliteDialect();
    private final FsTables t = new FsTables("fsindex_");
    private final DSLContext ctx = DSL.using(dialect.sqlDialect(), new Settings()
            .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
            .withRenderNamedParamPrefix(":")
            .withExecuteLogging(false));

    @TempDir
    Path tmp;

    /** Rows by ids a select gives (a sweep's or purge's subtree): {@code id in} a derived table. */
    @Test
    void rowsByIdsAreDeletedAndUpdatedWhereIdIsInTheSelectedIds() {
        assertThat(named(SampleStatements.subtreeDelete(dialect, t))).isEqualTo(
                "delete from fsindex_files where id in (select ids.id from (with recursive gone(id, depth) "
                + "as (select id, 0 from fsindex_files where id = :top union all select f.id, (gone.depth + "
                + "1) from fsindex_files as f join gone on f.parent = gone.id) select gone.id from gone) as "
                + "ids)");
        assertThat(named(SampleStatements.subtreeUpdate(dialect, t))).isEqualTo(
                "update fsindex_files set gone_at = :now where (gone_at is null and id in (select ids.id "
                + "from (with recursive gone(id, depth) as (select id, 0 from fsindex_files where id = :top "
                + "union all select f.id, (gone.depth + 1) from fsindex_files as f join gone on f.parent = "
                + "gone.id) select gone.id from gone) as ids))");
    }

    /**
     * New names go in several rows a statement, numbered by the scan on from the last id SQLite handed out (as
     * AUTOINCREMENT counts it), under the write lock the transaction holds; a name that exists already is left alone
     * and its id unused.
     */
    @Test
    void insertChildrenNumbered() {
        assertThat(named(dialect.statements().lastFileId(t))).isEqualTo("select max(coalesce((select seq from"
                + " sqlite_sequence where name = 'fsindex_files'), 0), coalesce((select max(id) from fsindex_files),"
                + " 0))");
        assertThat(named(dialect.statements().insertChildrenNumbered(t, 2))).isEqualTo("insert into fsindex_files"
                + " (id, parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " values (:id0, :parent0, :name0, :kind0, :size0, :mtime0, :link0, :key0, :scan, 0,"
                + " :listed0),"
                + " (:id1, :parent1, :name1, :kind1, :size1, :mtime1, :link1, :key1, :scan, 0,"
                + " :listed1)"
                + " on conflict do nothing");
    }

    /**
     * The insert happens only if the parent row exists and no newer scan has listed it; the update only if no newer
     * scan wrote the row. In SQLite the DO UPDATE also needs the SELECT to produce its row, so the parent guard
     * covers updates too.
     */
    @Test
    void upsertChild() {
        assertThat(named(dialect.statements().upsertChild(t))).isEqualTo("insert into fsindex_files"
                + " (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select :parent, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + " where exists (select 1 as one from fsindex_files as p where (p.id = :parent and p.listed_by <= :scan))"
                + " on conflict (parent, name) do update set"
                + " fingerprint = case when (fsindex_files.kind = :kind and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.fingerprint end,"
                + " content_hash = case when (fsindex_files.kind = :kind and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.content_hash end, kind = :kind, size = :size, mtime = :mtime,"
                + " link_target = :link, file_key = :key, scan_id = :scan, stale = 0, gone_at = null"
                + " where fsindex_files.scan_id <= :scan");
    }

    /**
     * A top-level row has a NULL parent, which UNIQUE (parent, name) does not catch; the conflict target names the
     * partial unique index instead. "where 1 = 1" is there because SQLite would otherwise read ON CONFLICT as a join.
     */
    @Test
    void upsertTopLevel() {
        assertThat(named(dialect.statements().upsertTopLevel(t))).isEqualTo("insert into fsindex_files"
                + " (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select null, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + " where 1 = 1"
                + " on conflict (name) where parent is null do update set"
                + " fingerprint = case when (fsindex_files.kind = :kind and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.fingerprint end,"
                + " content_hash = case when (fsindex_files.kind = :kind and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.content_hash end, kind = :kind, size = :size, mtime = :mtime,"
                + " link_target = :link, file_key = :key, scan_id = :scan, stale = 0, gone_at = null"
                + " where fsindex_files.scan_id <= :scan");
    }

    @Test
    void claimDirectory() {
        assertThat(named(dialect.statements().claimDirectory(t))).isEqualTo("update fsindex_files set listed_by = :scan"
                + " where (id = :dir and listed_by <= :scan and kind = 'DIRECTORY')");
    }

    /** SQLite serialises write transactions with BEGIN IMMEDIATE, so reading the feed's head needs no row lock. */
    @Test
    void lockFeed() {
        assertThat(named(dialect.statements().lockFeed(t))).isEqualTo("select last_seq from fsindex_feed where id = 1");
        assertThat(dialect.statements().maxCascadeDepth()).isLessThan(1000);
    }

    @Test
    void theTablePrefixIsTheOnlyThingThatChangesWithIt() {
        FsTables other = new FsTables("app_");
        assertThat(named(dialect.statements().claimDirectory(other))).isEqualTo("update app_files set listed_by = :scan"
                + " where (id = :dir and listed_by <= :scan and kind = 'DIRECTORY')");
        assertThat(named(dialect.statements().upsertChild(other)))
                .isEqualTo(named(dialect.statements().upsertChild(t)).replace("fsindex_files", "app_files"));
    }

    /** SQLite itself accepts every statement, with one placeholder per named parameter. */
    @Test
    void sqliteCompilesEveryStatementWithTheExpectedNumberOfParameters() throws Exception {
        String url = "jdbc:sqlite:" + tmp.resolve("index.db");
        FsIndex.builder().jdbcUrl(url).build().close();
        try (Connection c = RawSqlite.connect(url)) {
            for (Query q : new Query[] {dialect.statements().upsertChild(t), dialect.statements().upsertTopLevel(t), dialect.statements().claimDirectory(t),
                    dialect.statements().insertChildren(t, 2), dialect.statements().lockFeed(t)}) {
                String named = named(q);
                String positional = ctx.renderContext().paramType(ParamType.INDEXED).visit(q).render();
                assertThat(positional).isEqualTo(named.replaceAll(":[a-z]+[0-9]*", "?"));
                try (PreparedStatement s = c.prepareStatement(positional)) {
                    assertThat(s.getParameterMetaData().getParameterCount())
                            .as(positional)
                            .isEqualTo(named.split(":[a-z]+[0-9]*", -1).length - 1);
                }
            }
        }
    }

    private String named(Query q) {
        return ctx.renderNamedParams(q);
    }
}
