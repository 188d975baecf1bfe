package io.fsindex.mysql;

import static io.fsindex.innodb.Rendered.DELETE_BY_IDS;
import static io.fsindex.innodb.Rendered.INSERT_CHILDREN;
import static io.fsindex.innodb.Rendered.TABLES;
import static io.fsindex.innodb.Rendered.UPDATE_BY_IDS;
import static io.fsindex.innodb.Rendered.UPDATE_UNLESS_NEWER;
import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.innodb.LocalInfileLoader;
import io.fsindex.innodb.Rendered;
import org.junit.jupiter.api.Test;

/**
 * The exact SQL MySQL receives for each statement a dialect may override. jOOQ wraps MySQL's INSERT ... SELECT in a
 * derived table named {@code excluded} (with a column list: MySQL 8.0.19+); what matters is visible here: the guard
 * reads the parent {@code for share}, every assignment's CASE reads the row's original {@code scan_id} because
 * {@code scan_id} is assigned last.
 */
class MySqlRenderTest {
    private final MySqlDialect dialect = new MySqlDialect();
    private final Rendered r = new Rendered(dialect);

    /**
     * New subtrees load without ids, which InnoDB assigns, the feed's rows with their numbers; the text format's
     * defaults (tab, newline, backslash escapes, \N for null) are LOAD DATA's own.
     */
    @Test
    void bulkLoadsNameTheirColumnsAndLeaveTheIdToInnoDb() {
        assertThat(new LocalInfileLoader(dialect, TABLES).childrenStatement()).isEqualTo("LOAD DATA LOCAL INFILE 'fsindex-rows' INTO TABLE"
                + " `fsindex_files` CHARACTER SET utf8mb4 (`parent`, `name`, `kind`, `size`, `mtime`, `link_target`,"
                + " `file_key`, `scan_id`, `listed_by`)");
        assertThat(new LocalInfileLoader(dialect, TABLES).changesStatement()).isEqualTo("LOAD DATA LOCAL INFILE 'fsindex-rows' INTO TABLE"
                + " `fsindex_changes` CHARACTER SET utf8mb4 (`seq`, `entry`, `change_type`, `kind`, `dir`, `name`,"
                + " `previous_path`, `scan_id`, `at`)");
    }

    /** The numbers a load got, read back with the check that they are consecutive, in one statement. */
    @Test
    void loadedRowsAreCountedInTheRangeOfTheirFirstIdOnly() {
        assertThat(new LocalInfileLoader(dialect, TABLES).numberingStatement()).isEqualTo("select last_insert_id(), @@auto_increment_increment,"
                + " (select sum(case when `scan_id` = ? then 1 else 0 end) from `fsindex_files` where `id` between"
                + " last_insert_id() and (last_insert_id() + (? * @@auto_increment_increment)))");
    }

    /** Rows by ids a select gives (a sweep's or purge's subtree) are joined by primary key, as on MariaDB. */
    @Test
    void rowsByIdsAreDeletedAndUpdatedThroughAJoinOnTheSelectedIds() {
        assertThat(r.subtreeDelete(dialect)).isEqualTo(DELETE_BY_IDS);
        assertThat(r.subtreeUpdate(dialect)).isEqualTo(UPDATE_BY_IDS);
    }

    @Test
    void upsertChildLocksTheParentItChecksAndAssignsScanIdLast() {
        assertThat(r.sql(dialect.statements().upsertChild(TABLES))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select excluded.parent, excluded.name, excluded.kind, excluded.size, excluded.mtime,"
                + " excluded.link_target, excluded.file_key, excluded.scan_id, excluded.stale, excluded.listed_by"
                + " from (select :parent, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0"
                + " where exists (select 1 as one from fsindex_files as p"
                + " where (p.id = :parent and p.listed_by <= :scan) for share))"
                + " as excluded (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + UPDATE_UNLESS_NEWER);
    }

    @Test
    void upsertTopLevelConflictsOnTheTopLevelNameKey() {
        assertThat(r.sql(dialect.statements().upsertTopLevel(TABLES))).isEqualTo(
                "insert into fsindex_files (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + " select excluded.parent, excluded.name, excluded.kind, excluded.size, excluded.mtime,"
                + " excluded.link_target, excluded.file_key, excluded.scan_id, excluded.stale, excluded.listed_by"
                + " from (select null, :name, :kind, :size, :mtime, :link, :key, :scan, 0, 0)"
                + " as excluded (parent, name, kind, size, mtime, link_target, file_key, scan_id, stale, listed_by)"
                + UPDATE_UNLESS_NEWER);
    }

    /** A write transaction locks the feed's head row before numbering its changes, so numbers follow commit order. */
    @Test
    void lockFeedLocksTheHeadRow() {
        assertThat(r.sql(dialect.statements().lockFeed(TABLES))).isEqualTo("select last_seq from fsindex_feed where id = 1 for update");
    }

    /** A listing's owner check reads its directories' rows {@code for share}: a newer claim waits for the write. */
    @Test
    void ownerGuardSharesTheDirectoryRows() {
        assertThat(r.ownerGuard(dialect))
                .isEqualTo("select id, listed_by from fsindex_files where id in (:d0, :d1) for share");
    }

    /** New names go as a plain multi-row VALUES insert; a duplicate is left as it is. */
    @Test
    void insertChildrenIsAPlainInsertThatLeavesADuplicateAlone() {
        assertThat(r.sql(dialect.statements().insertChildren(TABLES, 2))).isEqualTo(INSERT_CHILDREN);
    }

    /** A walk's step reads the files table through the tree index, whatever the table's statistics say. */
    @Test
    void aDirectoryWalkReadsTheTreeIndex() {
        assertThat(r.sql(org.jooq.impl.DSL.selectOne().from(dialect.statements().filesByParent(TABLES, "f"))))
                .isEqualTo("select 1 as one from fsindex_files as f force index (fsindex_files_tree)");
    }
}
