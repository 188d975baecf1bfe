package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At SERIALIZABLE, a write transaction that a concurrent commit keeps overtaking fails again and again
 * (SQLSTATE 40001); a scan must then apply its group of listings in smaller transactions instead of retrying the
 * group whole until the retry timeout.
 */
class PostgresSerializableRetryTest {
    @TempDir
    Path tmp;

    /** A scan transaction open longer than this is overtaken by a concurrent commit on the feed head. */
    private static final long OVERTAKE_AFTER_MILLIS = 150;

    /**
     * A second session commits an update of the feed's head row whenever one of the scan's transactions has been
     * open longer than {@link #OVERTAKE_AFTER_MILLIS}: when that transaction then locks the head to number its
     * changes, PostgreSQL fails it with a serialization failure, as CockroachDB fails a transaction a concurrent
     * one overtook. So that this does not depend on the machine's speed, a trigger the test adds makes each
     * inserted row take a millisecond: a group of a hundred listings of ten files takes over a second every time and
     * so could never commit, one listing about ten milliseconds. The scan finishes only because its groups shrink.
     */
    @Test
    void aGroupThatKeepsFailingIsSplitAndTheScanFinishes() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        int files = 0;
        for (int a = 0; a < 8; a++) {
            for (int b = 0; b < 16; b++) {
                Path dir = Files.createDirectories(root.resolve("a" + a).resolve("b" + b));
                for (int f = 0; f < 10; f++) {
                    Files.writeString(dir.resolve("f" + f), "x");
                    files++;
                }
            }
        }
        TestDatabase shared = PostgresTestServer.database();
        String marker = "fsindex-overtaken-" + ProcessHandle.current().pid();
        TestDatabase db = new TestDatabase(shared.jdbcUrl() + (shared.jdbcUrl().contains("?") ? "&" : "?")
                + "ApplicationName=" + marker, shared.user(), shared.password());
        String prefix = TestDatabase.freshPrefix();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong overtaken = new AtomicLong();
        try (FsIndex index = db.builder(prefix).serializableWrites(true).retryTimeout(Duration.ofSeconds(60))
                .build()) {
            try (Connection c = DriverManager.getConnection(shared.jdbcUrl(), shared.user(), shared.password());
                 Statement s = c.createStatement()) {
                s.execute("CREATE FUNCTION " + prefix + "slow() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$ BEGIN PERFORM pg_sleep(0.001); RETURN NULL; END $$");
                s.execute("CREATE TRIGGER " + prefix + "slow AFTER INSERT ON " + prefix + "files FOR EACH ROW"
                        + " EXECUTE FUNCTION " + prefix + "slow()");
            }
            Thread overtaker = new Thread(() -> overtake(shared, marker, prefix, done, overtaken), "overtaker");
            overtaker.start();
            try {
                index.scan(root);
            } finally {
                done.set(true);
                overtaker.join();
            }

            assertThat(overtaken.get()).as("commits that overtook a scan transaction").isPositive();
            assertThat(index.transactionRetries()).isPositive();
            assertThat(IndexInternals.of(index).db().groupSplits()).as("groups split").isPositive();
            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
            assertThat(index.changeFeedLength()).isGreaterThanOrEqualTo(files + 8 * 16 + 8L);
        }
    }

    private static void overtake(TestDatabase db, String marker, String prefix, AtomicBoolean done,
                                 AtomicLong overtaken) {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement open = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                     + " WHERE application_name = ? AND state IN ('active', 'idle in transaction')"
                     + " AND xact_start < clock_timestamp() - make_interval(secs => ?)");
             Statement bump = c.createStatement()) {
            open.setString(1, marker);
            open.setDouble(2, OVERTAKE_AFTER_MILLIS / 1000.0);
            while (!done.get()) {
                boolean longOpen;
                try (ResultSet rs = open.executeQuery()) {
                    longOpen = rs.next() && rs.getLong(1) > 0;
                }
                if (longOpen) {
                    bump.executeUpdate("UPDATE " + prefix + "feed SET last_seq = last_seq WHERE id = 1");
                    overtaken.incrementAndGet();
                }
                Thread.sleep(longOpen ? 20 : 5);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the overtaking session failed", e);
        }
    }
}
