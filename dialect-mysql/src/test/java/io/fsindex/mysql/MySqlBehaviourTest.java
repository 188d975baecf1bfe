package io.fsindex.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import io.fsindex.innodb.LocalInfileLoader;
import io.fsindex.innodb.InnoDbBehaviourTest;
import io.fsindex.innodb.TestServer;
import io.fsindex.testkit.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** InnoDB's hazards on a real MySQL 8.0 server. */
class MySqlBehaviourTest extends InnoDbBehaviourTest {
    @Override
    protected TestServer server() {
        return TestServer.mysql();
    }

    @Override
    protected Dialect dialect() {
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
        io.fsindex.core.spi.BulkLoader loader = dialect().bulkLoader(new FsTables(prefix));
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

    /**
     * Guards the local-data setting {@code dialect-mysql/README.md} recommends ({@code allowLoadLocalInfileInPath}
     * naming a directory with nothing in it) and {@link MySqlDialect#sendLocalInfileFrom}: fsindex loads with it,
     * the driver sends fsindex's rows and nothing else when the server names another file during fsindex's load (here
     * the statement names it, as a rogue server would in its request), and sends no file for any other statement,
     * before or after a load.
     */
    @Test
    void withTheRecommendedSettingTheDriverSendsFsindexsRowsAndNoFile() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "secret\n");
        MySqlDialect dialect = new MySqlDialect();
        TestDatabase loading = server().loadingDatabase();
        javax.sql.DataSource pool = dialect.connections().openDataSource(loading.jdbcUrl(), loading.user(), loading.password(),
                io.fsindex.core.spi.PoolOptions.DEFAULTS);
        try (AutoCloseable closing = (AutoCloseable) pool; Connection c = pool.getConnection();
             Statement s = c.createStatement()) {
            dialect.connections().prepare(c);
            s.execute("CREATE TABLE " + prefix + "received (line TEXT)");
            String loadSecret = "LOAD DATA LOCAL INFILE '" + secret + "' INTO TABLE " + prefix + "received";
            assertThat(dialect.bulkLoader(new FsTables(prefix)).available(c)).as("fsindex loads").isTrue();

            assertThatThrownBy(() -> s.execute(loadSecret)).isInstanceOf(SQLException.class);
            assertThat(new LocalInfileLoader(dialect, new FsTables(prefix)).loadLocal(c, loadSecret, new java.io.ByteArrayInputStream(
                    "fsindex's rows\n".getBytes(StandardCharsets.UTF_8)))).isEqualTo(1);
            assertThatThrownBy(() -> s.execute(loadSecret)).isInstanceOf(SQLException.class);

            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT COUNT(*) FROM " + prefix + "received")).isOne();
            assertThat(InnoDbBehaviourTest.singleLong(s, "SELECT COUNT(*) FROM " + prefix + "received"
                    + " WHERE line = 'fsindex''s rows'")).isOne();
        }
    }

    /** {@code allowLoadLocalInfile=true}, the setting earlier versions documented, still lets fsindex load. */
    @Test
    void allowLoadLocalInfileStillLetsFsindexLoad() throws Exception {
        TestDatabase open = server().withUrlSetting("allowLoadLocalInfile=true");
        try (Connection c = java.sql.DriverManager.getConnection(open.jdbcUrl(), open.user(), open.password())) {
            assertThat(dialect().bulkLoader(new FsTables(prefix)).available(c)).isTrue();
        }
    }
}
