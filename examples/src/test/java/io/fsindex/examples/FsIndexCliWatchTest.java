package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsindex watch}: prints each committed change as {@code changes} does, stops cleanly on SIGTERM, and bounds
 * its parallel scans as {@code --parallel-scans} says.
 */
class FsIndexCliWatchTest {
    private static final long DEADLINE_NANOS = TimeUnit.MINUTES.toNanos(2);

    @TempDir
    Path tmp;

    @Test
    void watchPrintsEachChangeAndExitsCleanlyOnSigterm() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree")).toRealPath();
        Files.writeString(tree.resolve("before.txt"), "x");
        String url = "jdbc:sqlite:" + tmp.resolve("cli.db");
        Path log = tmp.resolve("cli.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process cli = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                FsIndexCli.class.getName(), "watch", tree.toString(), "--db", url, "--settle", "50ms"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitLog(cli, log, "fsindex: watching " + tree);
            assertThat(Files.readString(log)).contains("ADDED FILE " + tree.resolve("before.txt"));
            Files.writeString(tree.resolve("new.txt"), "y");
            awaitLog(cli, log, "ADDED FILE " + tree.resolve("new.txt"));
            Files.move(tree.resolve("new.txt"), tree.resolve("renamed.txt"));
            awaitLog(cli, log, "MOVED FILE " + tree.resolve("renamed.txt") + " <- " + tree.resolve("new.txt"));

            cli.destroy(); // SIGTERM
            assertThat(cli.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(cli.exitValue()).as(Files.readString(log)).isEqualTo(143);
            assertThat(Files.readString(log)).contains("fsindex: stopped watching " + tree);
        } finally {
            cli.destroyForcibly();
        }
    }

    // --parallel-scans reaches the watch (its start line says how many scans run at once, and changes in several
    // directories at once are printed), and a bound below 1 is refused with the usage error's exit code.
    @Test
    void parallelScansBoundsTheWatchAndIsChecked() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree")).toRealPath();
        for (String d : List.of("a", "b", "c")) {
            Files.createDirectories(tree.resolve(d));
        }
        String url = "jdbc:sqlite:" + tmp.resolve("cli.db");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process refused = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                FsIndexCli.class.getName(), "watch", tree.toString(), "--db", url, "--parallel-scans", "0"))
                .redirectErrorStream(true).start();
        String refusal = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(refused.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(refused.exitValue()).as(refusal).isEqualTo(2);
        assertThat(refusal).contains("--parallel-scans must be at least 1");

        Path log = tmp.resolve("cli.log");
        Process cli = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                FsIndexCli.class.getName(), "watch", tree.toString(), "--db", url, "--settle", "50ms",
                "--parallel-scans", "2"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitLog(cli, log, "fsindex: watching " + tree + " (4 directories, up to 2 scans at once)");
            for (String d : List.of("a", "b", "c")) {
                Files.writeString(tree.resolve(d).resolve("new.txt"), d);
            }
            for (String d : List.of("a", "b", "c")) {
                awaitLog(cli, log, "ADDED FILE " + tree.resolve(d).resolve("new.txt"));
            }
            cli.destroy(); // SIGTERM
            assertThat(cli.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(cli.exitValue()).as(Files.readString(log)).isEqualTo(143);
        } finally {
            cli.destroyForcibly();
        }
    }

    private static void awaitLog(Process cli, Path log, String text) throws Exception {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!Files.readString(log).contains(text)) {
            assertThat(cli.isAlive()).as("the CLI ended: %s", Files.readString(log)).isTrue();
            assertThat(System.nanoTime()).as("never printed %s: %s", text, Files.readString(log))
                    .isLessThan(deadline);
            Thread.sleep(20); // another process's output can only be observed by polling
        }
    }
}
