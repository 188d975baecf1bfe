package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.LocaleFreeJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real command-line main in a JVM started with no locale variable at all, as under cron, systemd or in a bare
 * container: it reads names as UTF-8 all the same, by starting itself again with a UTF-8 locale.
 */
class FsIndexCliWithoutLocaleTest {
    private static final String NFC = "caf\u00e9.txt";
    private static final String NFD = "cafe\u0301.txt";
    private static final String EMOJI = "\ud83d\ude00.txt";

    @TempDir
    Path tmp;

    @Test
    void aScanRecordsNonAsciiNamesByteForByteAndReportsAnUndecodableNameOnItsOwn() throws Exception {
        // The root's own name is not ASCII either: the arguments must reach the relaunched JVM intact.
        Path root = Files.createDirectories(tmp.resolve("r\u00e9pertoire \ud83d\udcc1"));
        for (String name : List.of(NFC, NFD, EMOJI, "plain.txt")) {
            Files.writeString(root.resolve(name), name);
        }
        Files.createDirectories(root.resolve("\u00fcber"));
        Files.writeString(root.resolve("\u00fcber/\u00df.txt"), "sz");
        // Not valid UTF-8, which Java cannot create: reported as UNDECODABLE_NAME, never a failed scan.
        shell("printf x > \"$1/$(printf 'bad\\377name')\"", root.toString());
        String db = "jdbc:sqlite:" + tmp.resolve("cli.db");

        LocaleFreeJvm.Output scan = LocaleFreeJvm.run(FsIndexCli.class.getName(), "scan", root.toString(), "--db",
                db);

        assertThat(scan.exitCode()).as(scan.toString()).isZero();
        assertThat(scan.stdout()).as(scan.toString()).startsWith("scan 1 of " + root.toRealPath() + ": ")
                .contains(" 1 errors");
        assertThat(scan.stderr()).as(scan.toString()).contains("UNDECODABLE_NAME");
        try (FsIndex index = FsIndex.builder().jdbcUrl(db).build()) {
            assertThat(index.children(root)).extracting(FileEntry::path).extracting(p -> p.getFileName().toString())
                    .containsExactlyInAnyOrder(NFC, NFD, EMOJI, "plain.txt", "\u00fcber");
            assertThat(index.children(root.resolve("\u00fcber"))).extracting(e -> e.path().getFileName().toString())
                    .containsExactly("\u00df.txt");
        }
        // Byte for byte as on disk: the two spellings of "café" stay two names (NFC and NFD, never normalised).
        assertThat(storedNameBytes(db)).contains(hex(NFC), hex(NFD), hex(EMOJI), hex(root.getFileName().toString()));

        LocaleFreeJvm.Output ls = LocaleFreeJvm.run(FsIndexCli.class.getName(), "ls", root.toString(), "--db", db);
        assertThat(ls.exitCode()).as(ls.toString()).isZero();
        assertThat(ls.stdout()).contains(NFC).contains(NFD).contains(EMOJI);
    }

    @Test
    void aRelaunchedJvmThatStillCannotReadUtf8SaysWhyInOneLineAndDoesNotStartAgain() {
        // What a child started with LC_ALL=C.UTF-8 on a system without that locale sees: no UTF-8, and the marker.
        ProcessBuilder pb = LocaleFreeJvm.java(FsIndexCli.class.getName(), "info", "--db",
                "jdbc:sqlite:" + tmp.resolve("cli.db"));
        pb.environment().put(Utf8Relaunch.ARGUMENTS, "");

        LocaleFreeJvm.Output child = LocaleFreeJvm.run(pb);

        assertThat(child.exitCode()).as(child.toString()).isEqualTo(1);
        assertThat(child.stderr()).as(child.toString()).startsWith("fsindex: ").contains("LC_ALL=C.UTF-8")
                .contains("set a UTF-8 locale");
        assertThat(child.stderr().strip().lines()).hasSize(1);
        assertThat(child.stdout()).isEmpty();
    }

    /**
     * SIGTERM to the command the user started (the JVM without a locale) ends the JVM it relaunched too, and the
     * command returns only once that JVM is gone.
     */
    @Test
    void stoppingTheCommandStopsTheRelaunchedJvm() throws Exception {
        ProcessBuilder pb = LocaleFreeJvm.java(FsIndexCli.class.getName(), "changes", "--follow", "--db",
                "jdbc:sqlite:" + tmp.resolve("cli.db"));
        Path log = tmp.resolve("follow.log");
        Process command = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        List<ProcessHandle> started = new ArrayList<>();
        try {
            ProcessHandle relaunched = awaitChild(command);
            started.add(relaunched);

            command.destroy();

            assertThat(command.waitFor(3, TimeUnit.MINUTES)).as("command ended").isTrue();
            assertThat(relaunched.isAlive()).as("relaunched JVM alive after the command ended; output:%n%s",
                    Files.readString(log)).isFalse();
            assertThat(command.exitValue()).isEqualTo(143);    // 128 + SIGTERM, as the JVM exits on it
        } finally {
            started.forEach(ProcessHandle::destroyForcibly);   // an orphan is no longer among the command's children
            command.destroyForcibly();
        }
    }

    private static ProcessHandle awaitChild(Process command) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            List<ProcessHandle> children = command.children().toList();
            if (!children.isEmpty()) {
                return children.get(0);
            }
            assertThat(command.isAlive()).as("command still running").isTrue();
            Thread.sleep(10);   // another process's children can only be observed by polling
        }
        throw new AssertionError("the command never started a child JVM");
    }

    private static List<String> storedNameBytes(String db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT hex(name) FROM fsindex_files")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static String hex(String name) {
        return HexFormat.of().withUpperCase().formatHex(name.getBytes(StandardCharsets.UTF_8));
    }

    private static void shell(String script, String arg) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", script, "sh", arg).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();
    }
}
