package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** InnoDB's hazards on a real MySQL 8.0 server. */
class MySqlBehaviourTest extends InnoDbBehaviourTest {
    @Override
    TestServer server() {
        return TestServer.mysql();
    }

    @Override
    Dialect dialect() {
        return new MySqlDialect();
    }

    /**
     * Guards the warning check of the bulk loader's {@code LOAD DATA LOCAL INFILE}: a local load turns a row that
     * breaks a constraint into a warning and skips it, and the loader must fail instead of losing the row.
     */
    @Test
    void aBulkLoadThatWouldSkipARowFailsInsteadOfWarning() throws Exception {
        Path root = tree("a.txt");
        openIndex().scan(root);
        TestDatabase loading = server().loadingDatabase();
        Dialect.BulkLoader loader = dialect().bulkLoader(new FsTables(prefix));
        try (Connection c = java.sql.DriverManager.getConnection(loading.jdbcUrl(), loading.user(),
                loading.password()); Statement s = c.createStatement()) {
            assertThat(loader.available(c)).as("the test server allows LOCAL INFILE").isTrue();
            String aTxt = " FROM " + prefix + "files WHERE name = 'a.txt'";
            long parent = InnoDbBehaviourTest.singleLong(s, "SELECT parent" + aTxt);
            long scan = InnoDbBehaviourTest.singleLong(s, "SELECT scan_id" + aTxt);
            String badKind = parent + "\tb.txt\tNOT_A_KIND\t0\t0\t\\N\t\\N\t" + scan + "\t0\n";

            assertThatThrownBy(() -> loader.load(c, new java.io.ByteArrayInputStream(
                    badKind.getBytes(StandardCharsets.UTF_8)))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("warning");
            // The load ran without foreign-key checks; the connection must not keep that, failed or not.
            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT @@foreign_key_checks")).isEqualTo(1);
            String good = parent + "\tc.txt\tFILE\t0\t0\t\\N\t\\N\t" + scan + "\t0\n";
            assertThat(loader.load(c, new java.io.ByteArrayInputStream(good.getBytes(StandardCharsets.UTF_8))))
                    .isEqualTo(1);
            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT @@foreign_key_checks")).isEqualTo(1);
        }
    }
}
