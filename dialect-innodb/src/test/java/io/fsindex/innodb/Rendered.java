package io.fsindex.innodb;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.SampleStatements;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/** Renders a dialect's statements exactly as fsindex does (core's Statements.context), for the render tests. */
public final class Rendered {
    private final DSLContext ctx;

    public Rendered(Dialect dialect) {
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
        ctx = DSL.using(dialect.sqlDialect(), new Settings()
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_UNQUOTED)
                .withRenderNamedParamPrefix(":"));
    }

    public String sql(Query query) {
        return ctx.renderNamedParams(query);
    }

    /** A listing's owner check over two directories, as the dialect locks it. */
    public String ownerGuard(Dialect dialect) {
        return sql(dialect.statements().lockedWhereConcurrent(DSL.select(TABLES.id, TABLES.listedBy).from(TABLES.files)
                .where(TABLES.id.in(DSL.param("d0", Long.class), DSL.param("d1", Long.class)))));
    }

    /** The sweep's deletion of a subtree's rows by their ids. */
    public String subtreeDelete(Dialect dialect) {
        return sql(SampleStatements.subtreeDelete(dialect, TABLES));
    }

    /** The sweep's marking of a subtree's rows gone, by their ids. */
    public String subtreeUpdate(Dialect dialect) {
        return sql(SampleStatements.subtreeUpdate(dialect, TABLES));
    }

    public static final FsTables TABLES = new FsTables("fsindex_");

    // The statements both engines receive alike, as the render tests of both dialects expect them.

    public static final String INSERT_CHILDREN = "insert into fsindex_files (parent, name, kind, size, mtime, link_target,"
                + " file_key, scan_id, stale, listed_by) values (:parent0, :name0, :kind0, :size0, :mtime0, :link0, :key0,"
                + " :scan, 0, :listed0), (:parent1, :name1, :kind1, :size1,"
                + " :mtime1, :link1, :key1, :scan, 0, :listed1)"
                + " on duplicate key update id = id";

    public static final String UPDATE_UNLESS_NEWER = " on duplicate key update"
            + " fingerprint = case when fsindex_files.scan_id <= :scan then case when (fsindex_files.kind = :kind"
            + " and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.fingerprint end"
            + " else fsindex_files.fingerprint end,"
            + " content_hash = case when fsindex_files.scan_id <= :scan then case when (fsindex_files.kind = :kind"
            + " and fsindex_files.size = :size and fsindex_files.mtime = :mtime) then fsindex_files.content_hash end"
            + " else fsindex_files.content_hash end,"
            + " kind = case when fsindex_files.scan_id <= :scan then :kind else fsindex_files.kind end,"
            + " size = case when fsindex_files.scan_id <= :scan then :size else fsindex_files.size end,"
            + " mtime = case when fsindex_files.scan_id <= :scan then :mtime else fsindex_files.mtime end,"
            + " link_target = case when fsindex_files.scan_id <= :scan then :link else fsindex_files.link_target end,"
            + " file_key = case when fsindex_files.scan_id <= :scan then :key else fsindex_files.file_key end,"
            + " stale = case when fsindex_files.scan_id <= :scan then 0 else fsindex_files.stale end,"
            + " gone_at = case when fsindex_files.scan_id <= :scan then null else fsindex_files.gone_at end,"
            + " scan_id = case when fsindex_files.scan_id <= :scan then :scan else fsindex_files.scan_id end";

    /** A subtree's rows by id, read into a derived table that {@code distinct} keeps MySQL from merging. */
    public static final String DELETE_BY_IDS = "delete from fsindex_files using fsindex_files, (select distinct i.id from"
            + " (with recursive gone(id, depth) as (select id, 0 from fsindex_files where id = :top union all"
            + " select f.id, (gone.depth + 1) from gone straight_join fsindex_files as f on f.parent = gone.id)"
            + " select gone.id from gone) as i) as ids where fsindex_files.id = ids.id";
    public static final String UPDATE_BY_IDS = "update fsindex_files join (select distinct i.id from"
            + " (with recursive gone(id, depth) as (select id, 0 from fsindex_files where id = :top union all"
            + " select f.id, (gone.depth + 1) from gone straight_join fsindex_files as f on f.parent = gone.id)"
            + " select gone.id from gone) as i) as ids on fsindex_files.id = ids.id set gone_at = :now"
            + " where gone_at is null";
}
