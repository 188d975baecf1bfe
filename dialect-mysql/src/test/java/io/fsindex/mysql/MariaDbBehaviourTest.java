package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.spi.Dialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** InnoDB's hazards on a real MariaDB 10.11 server, and what MariaDB's dialect does apart from MySQL's. */
class MariaDbBehaviourTest extends InnoDbBehaviourTest {
    @Override
    TestServer server() {
        return TestServer.mariadb();
    }

    @Override
    Dialect dialect() {
        return new MariaDbDialect();
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
                dialect().requireOnlyConflictsLeftOut(duplicate);   // a duplicate name is what it may leave out
            }
            try (PreparedStatement noSuchScan = prepared(c, insert, "h.txt", "i.txt", scan + 1000)) {
                assertThat(returnedRows(noSuchScan)).isEqualTo(1);
                assertThatThrownBy(() -> dialect().requireOnlyConflictsLeftOut(noSuchScan))
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
}
