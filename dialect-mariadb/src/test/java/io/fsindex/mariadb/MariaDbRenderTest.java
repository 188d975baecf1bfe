package io.fsindex.mariadb;

import static io.fsindex.innodb.Rendered.TABLES;
import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.innodb.Rendered;
import org.junit.jupiter.api.Test;

/**
 * The exact SQL MariaDB receives for each statement a dialect may override: the same statements as MySQL's, except
 * that MariaDB spells the shared lock {@code lock in share mode} and jOOQ needs no derived table for it.
 */
class MariaDbRenderTest {
    private final MariaDbDialect dialect = new MariaDbDialect();
    private final Rendered r = new Rendered(dialect);

    /** The conflict branch is the same as MySQL's: both come from InnoDbDialect. */
    private static final String UPDATE_UNLESS_NEWER = Rendered.UPDATE_UNLESS_NEWER;

    /**
     * Rows by ids a select gives (a sweep's or purge's subtree) are joined by primary key in a multi-table DELETE or
     * UPDATE: MariaDB 10.11 runs {@code id in (subquery)} in a single-table one as a subquery per row of the table.
     */
    @Test
    void rowsByIdsAreDeletedAndUpdatedThroughAJoinOnTheSelectedIds() {
        assertThat(r.subtreeDelete(dialect)).isEqualTo(Rendered.DELETE_BY_IDS);
        assertThat(r.subtreeUpdate(dialect)).isEqualTo(Rendered.UPDATE_BY_IDS);
    }

    @Test
    void upsertChildLocksTheParentItChecksAndAssignsScanIdLast() {
        assertThat(r.sql(dialect.statements().upsertChild(TABLES))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select :parent, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + " where exists (select 1 as one from fsindex_files as p"
                + " where (p.id = :parent and p.listed_by <= :scan) lock in share mode)"
                + UPDATE_UNLESS_NEWER);
    }

    @Test
    void upsertTopLevelConflictsOnTheTopLevelNameKey() {
        assertThat(r.sql(dialect.statements().upsertTopLevel(TABLES))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select null, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + UPDATE_UNLESS_NEWER);
    }

    /** A write transaction locks the feed's head row before numbering its changes, so numbers follow commit order. */
    @Test
    void lockFeedLocksTheHeadRow() {
        assertThat(r.sql(dialect.statements().lockFeed(TABLES))).isEqualTo("select last_seq from fsindex_feed where id = 1 for update");
    }

    /** A listing's owner check reads its directories' rows {@code lock in share mode}: a newer claim waits for the write. */
    @Test
    void ownerGuardSharesTheDirectoryRows() {
        assertThat(r.ownerGuard(dialect))
                .isEqualTo("select id, listed_by from fsindex_files where id in (:d0, :d1) lock in share mode");
    }

    /** The same plain insert as on MySQL (no row alias on either). */
    @Test
    void insertChildrenIsAPlainInsertThatLeavesADuplicateAlone() {
        assertThat(r.sql(dialect.statements().insertChildren(TABLES, 2))).isEqualTo(Rendered.INSERT_CHILDREN);
    }

    /** New names below directories go as INSERT IGNORE returning what went in; duplicates are left out. */
    @Test
    void insertChildrenReturningIgnoresDuplicatesAndReturnsTheInsertedRows() {
        assertThat(r.sql(dialect.statements().insertChildrenReturning(TABLES, 2))).isEqualTo("insert ignore into fsindex_files"
                + " (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by) values (:parent0,"
                + " :name0, :kind0, :size0, :mtime0, :link0, :key0, :scan, 0, :listed0), (:parent1, :name1, :kind1,"
                + " :size1, :mtime1, :link1, :key1, :scan, 0, :listed1) returning id, parent, name");
    }
}
