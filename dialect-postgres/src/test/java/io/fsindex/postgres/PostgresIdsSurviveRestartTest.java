package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileEntry;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.Trees;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ids are never handed out twice, even across a restart of the server: the newest rows are deleted, the server is
 * stopped and started again on the same data directory, and new rows get larger ids. The scan protocol relies on it:
 * a scan that still holds the id of a deleted directory must never find that id on a new row. These tests stop
 * their server, so each starts an embedded server of its own rather than using the shared one.
 */
class PostgresIdsSurviveRestartTest {
    @TempDir
    Path tmp;

    @Test
    void idsStayLargerThanAnyDeletedOneAfterACleanRestart() throws Exception {
        checkIdsAcrossRestart(false);
    }

    @Test
    void idsStayLargerThanAnyDeletedOneAfterACrashAndRecovery() throws Exception {
        checkIdsAcrossRestart(true);
    }

    private void checkIdsAcrossRestart(boolean crash) throws Exception {
        Path data = tmp.resolve("pgdata");
        Path root = tmp.resolve("tree");
        Trees.create(root, "a/", "a/1", "a/2", "a/3");
        long newestFile;
        long newestScan;

        EmbeddedPostgres server = start(data);
        try (FsIndex index = open(server)) {
            index.scan(root);
            newestFile = index.children(root.resolve("a")).stream().mapToLong(FileEntry::id).max().orElseThrow();
            Trees.delete(root.resolve("a"));
            ScanResult sweep = index.scan(root);
            assertThat(sweep.deleted()).isEqualTo(4);
            newestScan = sweep.scanId();
            assertThat(maxFileId(server)).as("the newest rows are really gone").isLessThan(newestFile);
        } finally {
            if (crash) {
                crash(data);
            }
            server.close();
        }

        server = start(data);
        try (FsIndex index = open(server)) {
            Trees.create(root, "b/", "b/1");
            ScanResult again = index.scan(root);
            assertThat(again.scanId()).isGreaterThan(newestScan);
            assertThat(index.lookup(root.resolve("b")).orElseThrow().id()).isGreaterThan(newestFile);
            assertThat(index.lookup(root.resolve("b/1")).orElseThrow().id()).isGreaterThan(newestFile);
        } finally {
            server.close();
        }
    }

    private static EmbeddedPostgres start(Path data) {
        try {
            // The embedded server defaults to synchronous_commit=off, with which a crash loses the last commits
            // (the sequence advances with them, but so does every connection that saw those ids). Here every commit
            // is written to the log before it returns, so the crash loses nothing committed; fsync=off is safe as
            // long as the machine itself does not crash.
            return EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("fsync", "off")
                    .setPGStartupWait(java.time.Duration.ofSeconds(60))
                    .start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("this test stops and restarts a server, so it needs the embedded"
                    + " PostgreSQL even when " + PostgresTestServer.URL_ENV + " is set; "
                    + PostgresTestServer.unavailable(e), e);
        }
    }

    private static FsIndex open(EmbeddedPostgres server) {
        return FsIndex.builder().jdbcUrl(server.getJdbcUrl("postgres", "postgres"))
                .orphanRetention(java.time.Duration.ZERO).build();
    }

    private static long maxFileId(EmbeddedPostgres server) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.getJdbcUrl("postgres", "postgres"));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(max(id), 0) FROM fsindex_files")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Stops the server the way a crash would: an immediate shutdown (SIGQUIT), which skips the checkpoint. */
    private static void crash(Path data) throws Exception {
        long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        Process kill = new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
        postmaster.onExit().get(60, TimeUnit.SECONDS);
    }
}
