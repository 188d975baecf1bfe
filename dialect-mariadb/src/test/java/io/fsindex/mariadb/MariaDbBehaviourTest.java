package io.fsindex.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.Dialect;
import io.fsindex.innodb.InnoDbBehaviourTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.Trees;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** InnoDB's hazards on a real MariaDB 10.11 server, and what MariaDB's dialect does apart from MySQL's. */
class MariaDbBehaviourTest extends InnoDbBehaviourTest {
    @Override
    protected TestServer server() {
        return TestServer.mariadb();
    }

    @Override
    protected Dialect dialect() {
        return new MariaDbDialect();
    }

    /**
     * Guards {@link InnoDbDialect#deleteFiles} and {@link InnoDbDialect#updateFiles} (a join on the selected ids):
     * MariaDB 10.11 runs a single-table {@code UPDATE} or {@code DELETE ... WHERE id IN (subquery)} as that subquery
     * once per row of the table, so marking a gone directory's subtree and purging orphans read every row of the
     * index, in every scan. (MySQL plans either form by cost, and may rightly scan a table this small.)
     */
    @Test
    void aScanThatRemovesASmallDirectoryReadsItsRowsNotTheWholeTable() throws Exception {
        List<String> paths = new ArrayList<>();
        for (int d = 0; d < 40; d++) {
            for (int f = 0; f < 100; f++) {
                paths.add("big" + d + "/" + f);
            }
        }
        paths.addAll(List.of("part/gone/a", "part/gone/b", "part/kept"));
        Path root = tree(paths.toArray(String[]::new));
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("part/gone"));

        long before = rowsReadByTheServer();
        ScanResult r = index.scan(root.resolve("part"));
        long read = rowsReadByTheServer() - before;

        assertThat(r.deleted()).isEqualTo(3);
        assertThat(read).as("rows the server read for a partial scan that removed 3 of %d rows", countFiles())
                .isLessThan(1_000);
    }

    /**
     * Guards the InnoDB statements' {@code walkStep} (a straight join from the rows walked to their children): MariaDB
     * estimates the rows a recursive step reads from the walk as the whole walk's, for the purge every orphan of the
     * table, and then reads the whole table once per level, in each of the bands the purge cuts a deep subtree into.
     */
    @Test
    void thePurgeOfADeepOrphanedSubtreeReadsItsRowsOncePerBand() throws Exception {
        int depth = 150;
        Path root = tree("d/".repeat(depth), "keep.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("d"));

        long before = rowsReadByTheServer();
        ScanResult r = index.scan(root);
        long read = rowsReadByTheServer() - before;

        assertThat(r.deleted()).isEqualTo(depth);
        long bands = depth / dialect().statements().maxCascadeDepth() + 1;
        assertThat(read).as("rows the server read to remove and purge a subtree %d levels deep from %d rows", depth,
                countFiles() + depth).isLessThan(bands * 20L * depth);
    }

    /** Rows read by table and index scans, server-wide (these tests run one at a time). */
    private long rowsReadByTheServer() throws SQLException {
        long rows = 0;
        try (Connection c = server().connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN"
                     + " ('Handler_read_rnd_next', 'Handler_read_next', 'Handler_read_prev')")) {
            while (rs.next()) {
                rows += rs.getLong(2);
            }
        }
        return rows;
    }

    /**
     * Guards {@link MariaDbDialect#requireOnlyConflictsLeftOut}: the returning insert is an {@code INSERT IGNORE},
     * which leaves out a row that breaks a foreign key or a CHECK with only a warning; the scan must fail then, as
     * it does for any error, and not carry on as if a concurrent scan had inserted the name.
     */
    @Test
    void aRowLeftOutForAnotherReasonThanADuplicateFailsTheInsert() throws Exception {
        Path root = tree("d/", "d/f.txt");
        openIndex().scan(root);
        try (Connection c = server().connect(); Statement s = c.createStatement()) {
            long d = singleLong(s, "SELECT id FROM " + prefix + "files WHERE name = 'd'");
            long scan = singleLong(s, "SELECT MAX(id) FROM " + prefix + "scans");
            String insert = "INSERT IGNORE INTO " + prefix + "files (parent, name, kind, scan_id) VALUES (" + d
                    + ", ?, 'FILE', " + scan + "), (" + d + ", ?, 'FILE', ?) RETURNING id";

            try (PreparedStatement duplicate = prepared(c, insert, "f.txt", "g.txt", scan)) {
                assertThat(returnedRows(duplicate)).isEqualTo(1);
                dialect().statements().requireOnlyConflictsLeftOut(duplicate);   // a duplicate name is what it may leave out
            }
            try (PreparedStatement noSuchScan = prepared(c, insert, "h.txt", "i.txt", scan + 1000)) {
                assertThat(returnedRows(noSuchScan)).isEqualTo(1);
                assertThatThrownBy(() -> dialect().statements().requireOnlyConflictsLeftOut(noSuchScan))
                        .isInstanceOf(SQLException.class).hasMessageContaining("foreign key");
            }
        }
    }

    private static PreparedStatement prepared(Connection c, String sql, String first, String second, long scan)
            throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        ps.setString(1, first);
        ps.setString(2, second);
        ps.setLong(3, scan);
        return ps;
    }

    private static int returnedRows(PreparedStatement insert) throws SQLException {
        int n = 0;
        try (ResultSet rs = insert.executeQuery()) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Guards {@code allowLocalInfile=false} on the pool fsindex opens: fsindex loads nothing on MariaDB, so its
     * connections do not offer the server local files, and a {@code LOAD DATA LOCAL INFILE} naming one fails instead
     * of sending it. A plain connection (the driver's default) sends it, so it is the pool's setting that refuses.
     */
    @Test
    void thePoolFsindexOpensSendsNoLocalFile() throws Exception {
        java.nio.file.Path secret = java.nio.file.Files.writeString(tmp.resolve("secret.txt"), "secret\n");
        String table = prefix + "received";
        String loadSecret = "LOAD DATA LOCAL INFILE '" + secret + "' INTO TABLE " + table;
        io.fsindex.testkit.TestDatabase db = server().database();
        javax.sql.DataSource pool = dialect().connections().openDataSource(db.jdbcUrl(), db.user(), db.password(),
                io.fsindex.core.spi.PoolOptions.DEFAULTS);
        try (AutoCloseable closing = (AutoCloseable) pool; Connection c = pool.getConnection();
             Statement s = c.createStatement();
             Connection plain = server().connect(); Statement p = plain.createStatement()) {
            s.execute("CREATE TABLE " + table + " (line TEXT)");
            assertThatThrownBy(() -> s.execute(loadSecret)).isInstanceOf(SQLException.class);
            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT COUNT(*) FROM " + table)).isZero();

            p.execute(loadSecret);
            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT COUNT(*) FROM " + table)).isOne();
        }
    }
}
