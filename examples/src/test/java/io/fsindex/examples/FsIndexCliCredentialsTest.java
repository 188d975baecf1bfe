package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.testservers.InnoDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool's credentials, against a real MariaDB server that checks them: the password comes from a file
 * ({@code --password-file}, {@code FSINDEX_PASSWORD_FILE}) or the environment ({@code FSINDEX_PASSWORD}), never
 * from a command-line argument, and no message repeats it.
 */
class FsIndexCliCredentialsTest {
    private static final String PASSWORD = "s3cret pass#word:x";
    private static Path home;
    private static InnoDbServer server;
    private static String url;

    @TempDir
    Path tmp;

    private final CliRun cli = new CliRun();
    private Path tree;

    @BeforeAll
    static void startServer() throws Exception {
        // short: the server's Unix socket lives there
        home = Files.createTempDirectory("fsindex-cli-");
        server = InnoDbServer.install(InnoDbServer.Engine.MARIADB, home, List.of());
        server.start();
        try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE cli CHARACTER SET utf8mb4");
            for (String host : List.of("127.0.0.1", "localhost")) {
                s.execute("CREATE USER 'indexer'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
                s.execute("GRANT ALL ON cli.* TO 'indexer'@'" + host + "'");
            }
        }
        url = server.url("cli");
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
        new ProcessBuilder("rm", "-rf", home.toString()).start().waitFor();
    }

    @BeforeEach
    void aTree() throws Exception {
        tree = Files.createDirectories(tmp.resolve("tree"));
        Files.writeString(tree.resolve("a.txt"), "a");
    }

    @Test
    void thePasswordFileLetsTheUserIn() throws Exception {
        // as `echo` or an editor writes it: the trailing line break is not part of the password
        Path file = Files.writeString(tmp.resolve("password"), PASSWORD + "\n");
        assertThat(cli.run("scan", tree.toString(), "--db", url, "--user", "indexer", "--password-file",
                file.toString())).as(cli.err.toString()).isZero();
        assertThat(cli.run("info", "--db", url, "--user", "indexer", "--password-file", file.toString()))
                .as(cli.err.toString()).isZero();
        assertThat(cli.out.toString()).contains("MariaDB").doesNotContain(PASSWORD);
    }

    @Test
    void theEnvironmentGivesUserAndPasswordOrPasswordFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("password"), PASSWORD);
        assertThat(cli.runWith(Map.of("FSINDEX_URL", url, "FSINDEX_USER", "indexer", "FSINDEX_PASSWORD_FILE",
                file.toString()), "scan", tree.toString())).as(cli.err.toString()).isZero();
        assertThat(cli.runWith(Map.of("FSINDEX_URL", url, "FSINDEX_USER", "indexer", "FSINDEX_PASSWORD", PASSWORD),
                "info")).as(cli.err.toString()).isZero();
        // the option wins over the variable
        Path wrong = Files.writeString(tmp.resolve("wrong"), "not-it");
        assertThat(cli.runWith(Map.of("FSINDEX_URL", url, "FSINDEX_USER", "indexer", "FSINDEX_PASSWORD_FILE",
                wrong.toString()), "info", "--password-file", file.toString())).as(cli.err.toString()).isZero();
    }

    @Test
    void aWrongPasswordIsRefusedWithoutBeingRepeated() throws Exception {
        String wrong = "wrong-Pa55word";
        Path file = Files.writeString(tmp.resolve("password"), wrong);
        assertThat(cli.run("scan", tree.toString(), "--db", url, "--user", "indexer", "--password-file",
                file.toString())).isEqualTo(1);
        assertThat(cli.err.toString()).contains("indexer").doesNotContain(wrong).doesNotContain(PASSWORD);
        assertThat(cli.out.toString()).doesNotContain(wrong);
    }

    @Test
    void anUnreadableOrEmptyPasswordFileIsAUsageErrorNamingTheFile() throws Exception {
        Path missing = tmp.resolve("no-such-file");
        assertThat(cli.run("info", "--db", url, "--user", "indexer", "--password-file", missing.toString()))
                .isEqualTo(2);
        assertThat(cli.err.toString()).contains("cannot read the password file " + missing);

        Path empty = Files.writeString(tmp.resolve("empty"), "\n");
        assertThat(cli.run("info", "--db", url, "--user", "indexer", "--password-file", empty.toString()))
                .isEqualTo(2);
        assertThat(cli.err.toString()).contains("password file " + empty + " is empty");
    }

    /** A password given as an argument would show in every user's {@code ps}: there is no option for it. */
    @Test
    void thereIsNoOptionThatTakesThePasswordItself() {
        assertThat(cli.run("info", "--db", url, "--password", PASSWORD)).isEqualTo(2);
        assertThat(cli.err.toString()).contains("Unknown option");
    }
}
