package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.io.FilterInputStream;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At {@code innodb_autoinc_lock_mode = 2}, MySQL 8's default, InnoDB numbers a {@code LOAD DATA}'s rows one at a time,
 * so another writer's insert can take a number between two of them. Shown by holding a load's text back three
 * quarters of the way while another connection inserts a row: the scan cannot tell its rows' ids, undoes the
 * transaction and inserts them instead, and every row and change comes out once. Guards the check in the InnoDB
 * loader's {@code loadedIds}: without it, the rows after the gap would be recorded under ids one too small.
 */
class MySqlLoadInterleavingTest {
    private static final int FILES = 4000;
    private static final long WAIT_SECONDS = 60;

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
        PausingLoads dialect = new PausingLoads();
        try (FsIndex index = TestServer.mysql().loadingDatabase().builder(prefix).dialect(dialect).build();
             Connection other = TestServer.mysql().connect();
             Statement s = other.createStatement()) {
            assertThat(value(s, "SELECT @@innodb_autoinc_lock_mode")).as("the lock mode this test is about")
                    .isEqualTo(2);
            long cursor = index.changeFeedEnd();
            CompletableFuture<ScanResult> scan = CompletableFuture.supplyAsync(() -> index.scan(tree));
            assertThat(dialect.paused.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("a load paused").isTrue();
            awaitLoadedRows(s);
            s.executeUpdate("INSERT INTO " + prefix + "scans (root, state, started_at) VALUES ('/other', 'COMPLETED',"
                    + " 0)");
            s.executeUpdate("INSERT INTO " + prefix + "files (parent, name, kind, scan_id) SELECT NULL, 'other',"
                    + " 'FILE', MAX(id) FROM " + prefix + "scans WHERE root = '/other'");
            dialect.resume.countDown();
            ScanResult result = scan.get(WAIT_SECONDS, TimeUnit.SECONDS);

            int added = tree.getNameCount() + 1 + 1 + FILES;    // the trunk from "/" down to the tree, d, its files
            assertThat(result.added()).isEqualTo(added);
            assertThat(Trees.inIndex(index, tree)).isEqualTo(Trees.onDisk(tree));
            List<Change> changes = index.changesSince(cursor, 2 * FILES).changes();
            assertThat(changes).hasSize(added).allSatisfy(c -> assertThat(c.type()).isEqualTo(ChangeType.ADDED));
            for (Change c : changes) {
                assertThat(index.lookup(c.path()).orElseThrow().id()).as(c.path().toString()).isEqualTo(c.id());
            }
            assertThat(dialect.loads.get()).as("the paused load, then none: the scan inserts from then on")
                    .isEqualTo(1);
            assertThat(index.scan(tree).added()).isZero();
        }
    }

    private static long value(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Waits until the server has inserted some of the paused load's rows (its transaction's modified rows, which
     * nothing else shows another connection before the commit).
     */
    private static void awaitLoadedRows(Statement s) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (value(s, "SELECT COALESCE(MAX(trx_rows_modified), 0) FROM information_schema.innodb_trx"
                + " WHERE trx_query LIKE 'LOAD DATA%'") == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no loaded rows in " + WAIT_SECONDS + " s; transactions: " + transactions(s));
            }
            Thread.sleep(10); // a server's progress, which nothing signals
        }
    }

    private static String transactions(Statement s) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (ResultSet rs = s.executeQuery("SELECT trx_state, trx_rows_modified, trx_query FROM"
                + " information_schema.innodb_trx")) {
            while (rs.next()) {
                out.append("\n  ").append(rs.getString(1)).append(' ').append(rs.getLong(2)).append(' ')
                        .append(rs.getString(3));
            }
        }
        return out.toString();
    }

    /** MySQL's dialect, whose first large load stops sending its text three quarters through until resumed. */
    private static final class PausingLoads extends InnoDbDialect {
        private final MySqlDialect mysql = new MySqlDialect();
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        final AtomicInteger loads = new AtomicInteger();

        @Override
        void sendLocalInfileFrom(Statement s, InputStream text) throws SQLException {
            int size;
            try {
                size = text.available();    // the whole text: it is in memory
            } catch (IOException e) {
                throw new SQLException(e);
            }
            if (size > FILES * 10) {
                loads.incrementAndGet();
                mysql.sendLocalInfileFrom(s, paused.getCount() > 0 ? new PausingStream(text, size * 3 / 4) : text);
            } else {
                mysql.sendLocalInfileFrom(s, text);
            }
        }

        @Override
        boolean driverAllowsLocalInfile(Connection c) throws SQLException {
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
        String urlMarker() {
            return mysql.urlMarker();
        }

        @Override
        String driverClassName() {
            return mysql.driverClassName();
        }

        @Override
        String recursionLimitVariable() {
            return mysql.recursionLimitVariable();
        }

        @Override
        Map<String, String> extraDriverProperties() {
            return mysql.extraDriverProperties();
        }

        /** Sends up to {@code pauseAt} bytes, says so, and sends the rest once resumed. */
        private final class PausingStream extends FilterInputStream {
            private long sent;
            private final long pauseAt;

            PausingStream(InputStream in, long pauseAt) {
                super(in);
                this.pauseAt = pauseAt;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (sent == pauseAt && paused.getCount() > 0) {
                    paused.countDown();
                    try {
                        if (!resume.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                            throw new IOException("not resumed");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                }
                int n = super.read(b, off, sent < pauseAt ? (int) Math.min(len, pauseAt - sent) : len);
                sent += Math.max(n, 0);
                return n;
            }

            /** Nothing more without blocking, so the driver sends what it has before the pause. */
            @Override
            public int available() {
                return 0;
            }
        }
    }
}
