package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.innodb.InnoDbDialect;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At {@code innodb_autoinc_lock_mode = 2}, MySQL 8's default, InnoDB numbers a {@code LOAD DATA}'s rows one at a time,
 * so another writer's insert can take a number between two of them. Shown by stopping a load at its 1000th row (a
 * trigger waits there for a lock this test holds) while another connection inserts a row: the scan cannot tell its
 * rows' ids, undoes the transaction and inserts them instead, and every row and change comes out once. Guards the
 * check in the InnoDB loader's {@code loadedIds}: without it, the rows after the gap would be recorded under ids one
 * too small.
 *
 * <p>Each step waits for the event it needs, never for a time: the load's connection takes lock {@code reached}
 * before the load starts and the trigger gives it up when the load stops, so this test's own request for it returns
 * exactly then. The trigger stops only rows inserted while their connection holds {@code reached}, so a scan that
 * never loads runs to its end (and the test fails) instead of waiting.
 */
class MySqlLoadInterleavingTest {
    private static final int FILES = 4000;
    /** The loaded row the load stops before, once the rows before it have taken their numbers. */
    private static final int STOP_AT_ROW = 1000;

    @TempDir
    Path tmp;

    @Test
    void aLoadAnotherWritersInsertInterleavesIsRetriedWithInserts() throws Exception {
        Path root = tmp.resolve("tree");
        String[] paths = new String[FILES + 1];
        paths[0] = "d/";
        for (int i = 0; i < FILES; i++) {
            paths[i + 1] = "d/file-" + i;
        }
        Trees.create(root, paths);
        Path tree = root.toRealPath();
        String prefix = TestDatabase.freshPrefix();
        String reached = "'" + prefix + "reached'";
        String go = "'" + prefix + "go'";
        LockingLoads dialect = new LockingLoads(reached);
        try (FsIndex index = TestServer.mysql().loadingDatabase().builder(prefix).dialect(dialect).build();
             Connection gate = TestServer.mysql().connect();
             Statement g = gate.createStatement();
             Connection other = TestServer.mysql().connect();
             Statement s = other.createStatement()) {
            assertThat(value(s, "SELECT @@innodb_autoinc_lock_mode")).as("the lock mode this test is about")
                    .isEqualTo(2);
            g.execute("CREATE TRIGGER " + prefix + "files_stop BEFORE INSERT ON " + prefix + "files FOR EACH ROW"
                    + " BEGIN IF NEW.name LIKE 'file-%' AND IS_USED_LOCK(" + reached + ") = CONNECTION_ID() THEN"
                    + " SET @fsindex_test_rows = COALESCE(@fsindex_test_rows, 0) + 1;"
                    + " IF @fsindex_test_rows = " + STOP_AT_ROW + " THEN"
                    + " DO RELEASE_LOCK(" + reached + "), GET_LOCK(" + go + ", -1);"
                    + " END IF; END IF; END");
            assertThat(value(g, "SELECT GET_LOCK(" + go + ", 0)")).isOne();
            long cursor = index.changeFeedEnd();
            CompletableFuture<ScanResult> scan = CompletableFuture.supplyAsync(() -> index.scan(tree));
            awaitBeforeTheScanEnds(dialect.loading, scan, "the load began");
            CompletableFuture<Long> stopped = CompletableFuture.supplyAsync(() -> {
                try {
                    return value(s, "SELECT GET_LOCK(" + reached + ", -1)");
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            awaitBeforeTheScanEnds(stopped, scan, "the load stopped at its " + STOP_AT_ROW + "th row");
            s.executeUpdate("INSERT INTO " + prefix + "scans (root, state, started_at) VALUES ('/other', 'COMPLETED',"
                    + " 0)");
            s.executeUpdate("INSERT INTO " + prefix + "files (parent, name, kind, scan_id) SELECT NULL, 'other',"
                    + " 'FILE', MAX(id) FROM " + prefix + "scans WHERE root = '/other'");
            g.execute("DO RELEASE_LOCK(" + go + ")");
            ScanResult result = scan.join();

            int added = tree.getNameCount() + 1 + 1 + FILES;    // the trunk from "/" down to the tree, d, its files
            assertThat(result.added()).isEqualTo(added);
            assertThat(Trees.inIndex(index, tree)).isEqualTo(Trees.onDisk(tree));
            List<Change> changes = index.changesSince(cursor, 2 * FILES).changes();
            assertThat(changes).hasSize(added).allSatisfy(c -> assertThat(c.type()).isEqualTo(ChangeType.ADDED));
            for (Change c : changes) {
                assertThat(index.lookup(c.path()).orElseThrow().id()).as(c.path().toString()).isEqualTo(c.id());
            }
            assertThat(dialect.loads.get()).as("the stopped load, then none: the scan inserts from then on")
                    .isEqualTo(1);
            assertThat(index.scan(tree).added()).isZero();
        }
    }

    /** Waits until {@code event} happens; fails at once, with the scan's own failure if any, if the scan ends first. */
    private static void awaitBeforeTheScanEnds(CompletableFuture<?> event, CompletableFuture<ScanResult> scan,
                                               String what) {
        CompletableFuture.anyOf(event, scan).exceptionally(e -> null).join();
        if (!event.isDone()) {
            scan.join();
            throw new AssertionError("the scan ended before " + what);
        }
        event.join();
    }

    private static long value(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** MySQL's dialect, whose first large load's connection takes lock {@code reached} before it starts. */
    private static final class LockingLoads extends InnoDbDialect {
        private final MySqlDialect mysql = new MySqlDialect();
        private final String reached;
        final CompletableFuture<Void> loading = new CompletableFuture<>();
        final AtomicInteger loads = new AtomicInteger();

        LockingLoads(String reached) {
            this.reached = reached;
        }

        @Override
        protected void sendLocalInfileFrom(Statement s, InputStream text) throws SQLException {
            int size;
            try {
                size = text.available();    // the whole text: it is in memory
            } catch (IOException e) {
                throw new SQLException(e);
            }
            if (size > FILES * 10 && loads.incrementAndGet() == 1) {
                try (Statement lock = s.getConnection().createStatement()) {
                    if (value(lock, "SELECT GET_LOCK(" + reached + ", 0)") != 1) {
                        throw new SQLException("lock " + reached + " is taken");
                    }
                }
                loading.complete(null);
            }
            mysql.sendLocalInfileFrom(s, text);
        }

        @Override
        protected void stopSendingLocalInfile(Statement s) throws SQLException {
            mysql.stopSendingLocalInfile(s);
        }

        @Override
        protected boolean driverAllowsLocalInfile(Connection c) throws SQLException {
            return mysql.driverAllowsLocalInfile(c);
        }

        @Override
        public String name() {
            return mysql.name();
        }

        @Override
        public SQLDialect sqlDialect() {
            return mysql.sqlDialect();
        }

        @Override
        protected String urlMarker() {
            return mysql.urlMarker();
        }

        @Override
        protected String driverClassName() {
            return mysql.driverClassName();
        }

        @Override
        protected String recursionLimitVariable() {
            return mysql.recursionLimitVariable();
        }

        @Override
        protected Map<String, String> extraDriverProperties() {
            return mysql.extraDriverProperties();
        }
    }
}
