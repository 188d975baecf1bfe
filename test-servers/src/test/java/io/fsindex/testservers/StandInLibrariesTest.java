package io.fsindex.testservers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The MySQL test server runs on a machine without libaio and libnuma: given every stand-in, as on a fresh Debian
 * machine, it initialises, starts, answers queries and has the stand-ins, not the system's copies, loaded.
 */
class StandInLibrariesTest {
    @Test
    void mySqlRunsOnTheStandIns() throws Exception {
        // short: the server's Unix socket lives in its home
        Path home = Files.createTempDirectory("fsindex-standin-");
        try (InnoDbServer server = InnoDbServer.install(InnoDbServer.Engine.MYSQL, home, List.of(), true)) {
            assertThat(server.standIns()).containsExactlyInAnyOrderElementsOf(StandInLibraries.AVAILABLE);
            server.start();
            try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT @@innodb_use_native_aio, 6 * 7")) {
                assertThat(r.next()).isTrue();
                assertThat(r.getInt(1)).isZero();
                assertThat(r.getInt(2)).isEqualTo(42);
            }
            List<String> maps = Files.readAllLines(Path.of("/proc/" + server.pid() + "/maps"));
            for (String lib : StandInLibraries.AVAILABLE) {
                assertThat(maps).as(lib).anyMatch(l -> l.endsWith(home.resolve("lib").resolve(lib).toString()));
            }
        } finally {
            new ProcessBuilder("rm", "-rf", home.toString()).start().waitFor();
        }
    }
}
