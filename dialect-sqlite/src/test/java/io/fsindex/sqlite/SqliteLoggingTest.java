package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.sqlite.CapturingLogProvider.Capture;
import io.fsindex.sqlite.CapturingLogProvider.Line;
import io.fsindex.testkit.Trees;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * What fsindex logs through SLF4J on a real SQLite file: a line per retried transaction and at the retry timeout, a
 * line per migration step and its result, each scan's start and summary. Read through this module's test binding,
 * {@link CapturingLogProvider}.
 */
class SqliteLoggingTest {
    @TempDir
    Path tmp;

    private String url() {
        return "jdbc:sqlite:" + tmp.resolve("index.db");
    }

    private Path tree() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x.txt", "b.txt");
        return root.toRealPath();
    }

    /** Rule: each retry of a busy write transaction is one DEBUG line with its cause, and the scan still succeeds. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRetriedTransactionIsLoggedWithItsCauseAndTheScanSummaryFollows() throws Exception {
        Path root = tree();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).build();
             Capture log = CapturingLogProvider.capture()) {
            CompletableFuture<ScanResult> scan;
            try (Connection holder = RawSqlite.connect(url()); Statement s = holder.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                scan = CompletableFuture.supplyAsync(() -> index.scan(root));
                Line retry = log.await(l -> l.logger().equals("io.fsindex.core.internal.Database"));
                assertThat(retry.level()).isEqualTo(Level.DEBUG);
                assertThat(retry.message()).startsWith("SQLite transaction attempt 1 must be retried, in ")
                        .contains("SQLITE_BUSY");
                s.execute("ROLLBACK");
            }
            ScanResult result = scan.get();
            assertThat(index.transactionRetries()).isPositive();

            Line started = log.await(l -> l.message().startsWith("scan " + result.scanId() + " of "));
            assertThat(started.level()).isEqualTo(Level.INFO);
            assertThat(started.message()).isEqualTo("scan " + result.scanId() + " of " + root + " started");
            Line summary = log.await(l -> l.message().contains(" completed in "));
            assertThat(summary.level()).isEqualTo(Level.INFO);
            assertThat(summary.message()).startsWith("scan " + result.scanId() + " of " + root + " completed in ")
                    .endsWith(" s: " + result.added() + " added, 0 modified, 0 moved, 0 deleted, 0 errors");
            assertThat(log.lines()).noneMatch(l -> l.level() == Level.WARN);
        }
    }

    /** Rule: giving up on a busy database is one WARN line naming the timeout, besides the caller's exception. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givingUpAfterTheRetryTimeoutIsAWarning() throws Exception {
        Path root = tree();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).retryTimeout(Duration.ZERO).build();
             Capture log = CapturingLogProvider.capture();
             Connection holder = RawSqlite.connect(url()); Statement s = holder.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            assertThatThrownBy(() -> index.scan(root)).isInstanceOf(ScanFailedException.class);
            s.execute("ROLLBACK");

            assertThat(log.lines()).filteredOn(l -> l.level() == Level.WARN).singleElement()
                    .satisfies(l -> assertThat(l.message()).startsWith("SQLite stayed busy for longer than the retry"
                            + " timeout of 0 ms; giving up after 1 attempts: ").contains("SQLITE_BUSY"));
        }
    }

    /** Rule: recording scans ABANDONED, whose lease ran out, is one INFO line with how many. */
    @Test
    void scansRecordedAbandonedAreLogged() throws Exception {
        Path root = tree();
        try (FsIndex index = FsIndex.builder().jdbcUrl(url()).scanLease(Duration.ofSeconds(10)).build();
             Capture log = CapturingLogProvider.capture()) {
            RawSqlite.execute(url(), "INSERT INTO fsindex_scans (root, state, started_at, heartbeat_at)"
                    + " VALUES ('/gone', 'RUNNING', 1, 1)");
            index.scan(root);
            assertThat(log.lines()).filteredOn(l -> l.logger().equals("io.fsindex.core.scan.ScanLifecycle"))
                    .singleElement()
                    .satisfies(l -> assertThat(l.level()).isEqualTo(Level.INFO))
                    .satisfies(l -> assertThat(l.message()).isEqualTo("recorded 1 scan(s) ABANDONED: no sign of life"
                            + " for longer than the scan lease of 10000 ms"));
        }
    }

    /** Rule: each migration step is an INFO line "from version N to N+1", and the result one more. */
    @Test
    void eachMigrationStepAndTheResultAreLogged() throws Exception {
        applyVersion1();
        try (Capture log = CapturingLogProvider.capture()) {
            FsIndex.builder().jdbcUrl(url()).build().close();
            assertThat(log.lines()).filteredOn(l -> l.logger().equals("io.fsindex.core.schema.SchemaManager"))
                    .allMatch(l -> l.level() == Level.INFO)
                    .extracting(Line::message)
                    .containsExactly(
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 1 to 2",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 2 to 3",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 3 to 4",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 4 to 5",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 5 to 6",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 6 to 7",
                            "migrating fsindex's tables fsindex_* in the SQLite database from version 7 to 8",
                            "migrated fsindex's tables fsindex_* in the SQLite database: now at version 8"
                                    + " (were at 1)");
        }
        try (Capture log = CapturingLogProvider.capture()) {
            FsIndex.builder().jdbcUrl(url()).build().close();
            assertThat(log.lines()).as("an up-to-date schema").noneMatch(l -> l.message().contains("migrat"));
        }
    }

    private void applyVersion1() throws Exception {
        String script;
        try (InputStream in = SqliteDialect.class.getResourceAsStream("schema/V1.sql")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${prefix}", "fsindex_");
        }
        try (Connection c = RawSqlite.connect(url()); Statement s = c.createStatement()) {
            for (String sql : SqliteSchemaTest.statementsOf(script)) {
                s.execute(sql);
            }
        }
    }
}
