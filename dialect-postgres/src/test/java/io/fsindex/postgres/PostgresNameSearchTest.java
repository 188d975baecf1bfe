package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileQuery;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.spi.FsTables;
import io.fsindex.core.spi.PoolOptions;
import io.fsindex.testkit.IndexTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's name search index moves new names from its pending list into the index in large batches: the index
 * carries its own pending-list limit, fsindex's sessions the memory to move a full list in one pass, and names are
 * found exactly whether they wait in the pending list or were moved.
 */
class PostgresNameSearchTest extends IndexTest {
    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    @Test
    void theIndexKeepsItsOwnPendingListLimit() throws Exception {
        openIndex(b -> b.nameSearchIndex(true));
        try (PgSession session = new PgSession(database(), new FsTables(prefix()))) {
            assertThat(session.queryLong("SELECT count(*) FROM pg_class WHERE oid = ?::regclass"
                    + " AND reloptions @> ARRAY['fastupdate=on', 'gin_pending_list_limit="
                    + PostgresNameSearch.PENDING_LIST_KB + "']", prefix() + "files_name_trgm")).isEqualTo(1);
        }
    }

    @Test
    void sessionsFsindexOpensHaveTheWorkMemToMoveAFullListInOnePass() throws Exception {
        TestDatabase db = database();
        assertThat(workMem(db.jdbcUrl(), new PoolOptions(0, null, true))).isEqualTo(PostgresConnections.WORK_MEM);
    }

    @Test
    void sessionsThatWriteNoNameSearchIndexKeepTheServersWorkMem() throws Exception {
        TestDatabase db = database();
        String server;
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW work_mem")) {
            rs.next();
            server = rs.getString(1);
        }
        assertThat(server).isNotEqualTo(PostgresConnections.WORK_MEM);
        assertThat(workMem(db.jdbcUrl(), PoolOptions.DEFAULTS)).isEqualTo(server);
        String prefix = TestDatabase.freshPrefix();
        for (boolean on : new boolean[] {true, false}) {
            try (FsIndex index = db.builder(prefix).nameSearchIndex(on).build()) {
                String sessions = IndexInternals.of(index).db().read(c -> {
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW work_mem")) {
                        rs.next();
                        return rs.getString(1);
                    }
                });
                assertThat(sessions).as("name search index " + (on ? "on" : "off"))
                        .isEqualTo(on ? PostgresConnections.WORK_MEM : server);
            }
        }
    }

    private String workMem(String url, PoolOptions pool) throws Exception {
        TestDatabase db = database();
        DataSource ds = new PostgresConnections().openDataSource(url, db.user(), db.password(), pool);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW work_mem")) {
            rs.next();
            return rs.getString(1);
        } finally {
            ((AutoCloseable) ds).close();
        }
    }

    @Test
    void aUrlThatSetsWorkMemItselfKeepsItsValue() throws Exception {
        TestDatabase db = database();
        String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "options=-c%20work_mem%3D8MB";
        DataSource ds = new PostgresConnections().openDataSource(url, db.user(), db.password(), PoolOptions.DEFAULTS);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW work_mem")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("8MB");
        } finally {
            ((AutoCloseable) ds).close();
        }
    }

    @Test
    void namesAreFoundBeforeAndAfterThePendingListMovesIntoTheIndex() throws Exception {
        Path root = tree("a/", "a/Report-Q7X.txt", "a/other.txt", "b/", "b/q7x", "b/xq7", "b/deep/", "b/deep/aQ7Xb");
        FsIndex index = openIndex(b -> b.nameSearchIndex(true));
        index.scan(root);
        List<String> expected = List.of("Report-Q7X.txt", "aQ7Xb", "q7x");
        assertThat(names(index)).containsExactlyInAnyOrderElementsOf(expected);
        try (PgSession session = new PgSession(database(), new FsTables(prefix()))) {
            assertThat(session.queryLong("SELECT gin_clean_pending_list(?::regclass)",
                    prefix() + "files_name_trgm")).as("entries moved out of the pending list").isPositive();
        }
        assertThat(names(index)).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static List<String> names(FsIndex index) {
        return index.find(FileQuery.any().withNameContaining("q7x")).entries().stream()
                .map(FileEntry::path).map(p -> p.getFileName().toString()).toList();
    }
}
