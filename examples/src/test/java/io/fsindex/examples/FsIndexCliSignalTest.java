package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the CLI ends a scan it is told to stop, and how {@code info} shows a scan whose process is gone. */
class FsIndexCliSignalTest {
    private static final long DEADLINE_NANOS = TimeUnit.MINUTES.toNanos(2);

    @TempDir
    Path tmp;

    /**
     * SIGTERM while a scan runs: the CLI cancels the scan, waits for it to record CANCELLED, and exits with 143. The
     * scan is held mid-way by this test's write lock on the SQLite file (taken once the scan row is RUNNING), so the
     * signal cannot arrive after the scan has ended; the lock is released once the CLI has started cancelling.
     */
    @Test
    void sigtermCancelsTheRunningScanWhichRecordsCancelledAndExitsWith143() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        for (int d = 0; d < 600; d++) {
            Path dir = Files.createDirectories(tree.resolve("d" + d));
            for (int f = 0; f < 10; f++) {
                Files.writeString(dir.resolve("f" + f), "x");
            }
        }
        String url = "jdbc:sqlite:" + tmp.resolve("cli.db");
        Path log = tmp.resolve("cli.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process cli = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                FsIndexCli.class.getName(), "scan", tree.toString(), "--db", url, "-q"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (Connection lock = DriverManager.getConnection(url); Statement s = lock.createStatement()) {
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (!runningScanExists(s)) {
                assertThat(cli.isAlive()).as("the CLI ended before its scan ran: %s", Files.readString(log)).isTrue();
                assertThat(System.nanoTime()).as("no scan started").isLessThan(deadline);
                Thread.sleep(1); // another process's progress can only be observed by polling
            }
            s.execute("BEGIN IMMEDIATE");
            try {
                assertThat(stateOfScan(s)).as("the scan must still be running when it is blocked").isEqualTo("RUNNING");
                cli.destroy(); // SIGTERM
                while (!Files.readString(log).contains("stopping: cancelling")) {
                    assertThat(cli.isAlive()).as("the CLI exited without cancelling: %s", Files.readString(log))
                            .isTrue();
                    assertThat(System.nanoTime()).as("the CLI never started cancelling: %s", Files.readString(log))
                            .isLessThan(deadline);
                    Thread.sleep(10);
                }
            } finally {
                s.execute("COMMIT");
            }
            assertThat(cli.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(cli.exitValue()).as(Files.readString(log)).isEqualTo(143);
            assertThat(stateOfScan(s)).as(Files.readString(log)).isEqualTo("CANCELLED");
            assertThat(Files.readString(log)).contains("cancelled");
        } finally {
            cli.destroyForcibly();
        }
    }

    private static boolean runningScanExists(Statement s) {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM fsindex_scans WHERE state = 'RUNNING'")) {
            return rs.next() && rs.getLong(1) > 0;
        } catch (SQLException tablesNotCreatedYet) {
            return false;
        }
    }

    private static String stateOfScan(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT state FROM fsindex_scans WHERE id = 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** {@code info} shows a RUNNING scan whose heartbeat is older than the lease as ABANDONED, with its last sign of life. */
    @Test
    void infoShowsAScanWhoseProcessIsGoneAsAbandoned() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        String url = "jdbc:sqlite:" + tmp.resolve("cli.db");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(FsIndexCli.run(new String[] {"scan", tree.toString(), "--db", url},
                new PrintWriter(out, true), new PrintWriter(err, true))).isZero();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO fsindex_scans (root, state, started_at, heartbeat_at)"
                    + " VALUES ('/gone', 'RUNNING', 1000, 2000)");
        }
        out.getBuffer().setLength(0);
        assertThat(FsIndexCli.run(new String[] {"info", "--db", url}, new PrintWriter(out, true),
                new PrintWriter(err, true))).isZero();
        assertThat(out.toString().lines().filter(l -> l.contains("/gone")).findFirst().orElseThrow())
                .contains("ABANDONED").contains("last alive").contains("no sign of life");
    }
}
