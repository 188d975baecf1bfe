package io.fsindex.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FileSink;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.internal.LoadRefused;
import io.fsindex.core.scan.NioWalker;
import io.fsindex.testkit.RawIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Inserts meeting other transactions, staged on the sink itself: a row another scan inserted after the transaction
 * began is not recorded added by this scan, a name another transaction inserts meanwhile is left to it, and a write
 * that fails after a retry also reports what made it retry. A dialect's test extends this class like the other
 * conformance suites.
 */
public abstract class SqlFileSinkInsertRaceConformanceTest extends SqlFileSinkFixture {

    /**
     * A row another scan inserts below a directory after this scan's transaction began, and which this scan then
     * writes (here: records its new size), is recorded modified, not also added: the scan tells the rows it inserted
     * itself by their ids being above the largest id when its transaction began, so on finding a row above that which
     * it did not insert it starts the transaction again. The other scan's insert is staged here while this scan's
     * transaction waits for the directory's row, which the test holds.
     */
    @Test
    void aRowAnotherScanInsertedAfterTheTransactionBeganIsNotRecordedAddedByThisScan() throws Exception {
        Path root = tree("d/", "keep.txt");
        Path d = root.resolve("d");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Files.writeString(d.resolve("late.txt"), "inserted by another scan meanwhile");
        Files.writeString(d.resolve("new.txt"), "inserted by this scan");
        List<WalkedEntry> listingOfD = new NioWalker().list(d).entries();
        String insertLate = "INSERT INTO " + prefix() + "files (parent, name, kind, scan_id) VALUES (" + dId
                + ", 'late.txt', 'FILE', %d)";

        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Connection olderC = IndexInternals.of(index).db().connect(); Connection newerC = IndexInternals.of(index).db().connect()) {
            long older = IndexInternals.of(index).insertScanRow(olderC, d.toString());
            SqlFileSink newer = sink(index, newerC, IndexInternals.of(index).insertScanRow(newerC, root.toString()));
            String waits = lockWaitsQuery(prefix());
            if (waits == null) {
                try (Statement s = olderC.createStatement()) {
                    s.executeUpdate(String.format(insertLate, older));
                }
                newer.applyGroup(List.of(d), List.of(new FileSink.Directory(dId, rootId, "d", d)),
                        List.of(listingOfD));
            } else {
                olderC.setAutoCommit(false);
                try (Statement s = olderC.createStatement()) {
                    s.executeQuery("SELECT id FROM " + prefix() + "files WHERE id = " + dId + " FOR UPDATE").close();
                }
                Future<?> applying = executor.submit(() -> newer.applyGroup(List.of(d),
                        List.of(new FileSink.Directory(dId, rootId, "d", d)), List.of(listingOfD)));
                assertThat(awaitLockWaits(waits, 1, applying)).as("the listing waits for d's row").isTrue();
                try (Statement s = olderC.createStatement()) {
                    s.executeUpdate(String.format(insertLate, older));
                }
                olderC.commit();
                applying.get(60, TimeUnit.SECONDS);
            }
            newer.finish(true);
        } finally {
            executor.shutdownNow();
        }

        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactlyInAnyOrder("MODIFIED d/late.txt", "ADDED d/new.txt");
    }

    /**
     * A name another transaction inserts below a directory while the scan applies its listing of it (a newer partial
     * scan's root, say) is left to that transaction: the scan's insert waits for it, finds the name taken, and
     * neither records the row as added nor counts it. On MariaDB this is the duplicate that {@code INSERT IGNORE}
     * leaves out with a warning, and the only warning it may leave; with {@code ON DUPLICATE KEY UPDATE} MariaDB's
     * {@code RETURNING} would return the other transaction's row as if inserted.
     */
    @Test
    void aNameAnotherTransactionInsertsMeanwhileIsLeftToIt() throws Exception {
        Path root = tree("d/x.txt");
        Path d = root.resolve("d");
        FsIndex index = openIndex();
        index.scan(root);
        long rootId = index.lookup(root).orElseThrow().id();
        long dId = index.lookup(d).orElseThrow().id();
        long cursor = index.changeFeedEnd();
        Files.writeString(d.resolve("y.txt"), "taken meanwhile");
        Files.writeString(d.resolve("z.txt"), "added by the scan");
        List<WalkedEntry> listingOfD = new NioWalker().list(d).entries();

        ExecutorService executor = Executors.newSingleThreadExecutor();
        List<ListingWaves.GroupResult> results;
        long other;
        try (Connection c = IndexInternals.of(index).db().connect(); Connection otherC = IndexInternals.of(index).db().connect()) {
            SqlFileSink sink = sink(index, c, IndexInternals.of(index).insertScanRow(c, root.toString()));
            other = IndexInternals.of(index).insertScanRow(otherC, d.resolve("y.txt").toString());
            otherC.setAutoCommit(false);
            try (Statement s = otherC.createStatement()) {
                s.executeUpdate("INSERT INTO " + prefix() + "files (parent, name, kind, scan_id) VALUES (" + dId
                        + ", 'y.txt', 'FILE', " + other + ")");
            }
            Future<List<ListingWaves.GroupResult>> applying = executor.submit(() -> sink.applyGroup(List.of(d),
                    List.of(new FileSink.Directory(dId, rootId, "d", d)), List.of(listingOfD)));
            String waits = lockWaitsQuery(prefix());
            if (waits != null) {
                assertThat(awaitLockWait(waits, applying)).as("the scan's insert must wait for the other's row")
                        .isTrue();
            }
            otherC.commit();
            results = applying.get(60, TimeUnit.SECONDS);
            sink.finish(true);
        } finally {
            executor.shutdownNow();
        }

        assertThat(results.get(0).applied().added()).isEqualTo(1);
        assertThat(index.changesSince(cursor, 100).changes()).extracting(ch -> ch.type() + " "
                + root.relativize(ch.path())).containsExactly("ADDED d/z.txt");
        assertThat(new RawIndex(database(), prefix()).queryLong("SELECT scan_id FROM " + prefix()
                + "files WHERE name = 'y.txt'")).isEqualTo(other);
    }

    /**
     * A write transaction retried after a transient failure (here a refused bulk load) that then fails for good must
     * say what made it retry as well: a load refused because the connection broke shows up as the next attempt's
     * "connection closed", which alone does not tell why.
     */
    @Test
    void aWriteThatFailsAfterARetryAlsoReportsWhatMadeItRetry() throws Exception {
        FsIndex index = openIndex();
        int[] attempts = {0};
        try (Connection c = IndexInternals.of(index).db().connect()) {
            assertThatThrownBy(() -> IndexInternals.of(index).db().write(c, conn -> {
                if (attempts[0]++ == 0) {
                    throw new LoadRefused(new SQLException("the load broke"));
                }
                throw new SQLException("the retry failed");
            })).isInstanceOf(SQLException.class).hasMessage("the retry failed")
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                            .isInstanceOf(LoadRefused.class)
                            .satisfies(s -> assertThat(s.getMessage()).contains("the load broke")));
        }
        assertThat(attempts[0]).isEqualTo(2);
    }
}
