package io.fsindex.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink;
import io.fsindex.api.ScanListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One group whose second wave moves a row its first wave inserted must record the row added (at its first place) and
 * then moved. Where added rows are read back when the feed head is locked (PostgreSQL, MySQL, MariaDB), they must be
 * written before the move, or the file would be recorded added at its new place (or the transaction would fail on
 * the count); on SQLite the new rows' ids come back from the insert and are recorded at once, and this checks that
 * path gives the same feed. A file moved on disk between the walker's listings of its old and new directories is
 * what makes this happen in a real scan; here the listings are staged.
 */
class SqlFileSinkWavesTest {
    @TempDir
    Path tmp;

    @Test
    void aRowInsertedByOneWaveAndMovedByTheNextIsAddedThenMoved() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        Path a = Files.createDirectories(root.resolve("a"));
        Files.writeString(root.resolve("seed.txt"), "so the index is not empty and moves are looked for");
        String url = "jdbc:sqlite:" + tmp.resolve("index.db");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
            index.scan(root);
            long aId = index.lookup(a).orElseThrow().id();
            long rootId = index.lookup(root).orElseThrow().id();
            long cursor = index.changeFeedEnd();

            Files.writeString(a.resolve("f.txt"), "moves between two listings");
            Path n = Files.createDirectories(a.resolve("n"));
            NioWalker walker = new NioWalker();
            List<io.fsindex.api.WalkedEntry> listingOfA = walker.list(a).entries();
            Files.move(a.resolve("f.txt"), n.resolve("f.txt"));
            List<io.fsindex.api.WalkedEntry> listingOfN = walker.list(n).entries();

            // The index's own database, statements and scan row: only the listings are staged.
            try (Connection c = index.db.connect()) {
                long scan = index.insertScanRow(c, a.toString());
                SqlFileSink sink = new SqlFileSink(index.db, index.statements, c, scan, walker, new ScanListener() {
                }, FeedSettings.DEFAULTS, false);
                List<SqlFileSink.GroupResult> results = sink.applyGroup(Arrays.asList(a, n),
                        Arrays.asList(new FileSink.Directory(aId, rootId, "a", a), null),
                        List.of(listingOfA, listingOfN));
                assertThat(results).allSatisfy(r -> assertThat(r.applied()).isNotNull());
                sink.finish(true);
            }

            List<Change> changes = index.changesSince(cursor, 100).changes();
            assertThat(changes).hasSize(3);
            assertThat(changes.subList(0, 2)).extracting(ch -> ch.type() + " " + root.relativize(ch.path()))
                    .containsExactlyInAnyOrder("ADDED a/f.txt", "ADDED a/n");
            Change moved = changes.get(2);
            assertThat(moved.type()).isEqualTo(ChangeType.MOVED);
            assertThat(moved.path()).isEqualTo(n.resolve("f.txt"));
            assertThat(moved.previousPath()).isEqualTo(a.resolve("f.txt"));
            Change added = changes.get(0).path().equals(a.resolve("f.txt")) ? changes.get(0) : changes.get(1);
            assertThat(moved.id()).isEqualTo(added.id());
            assertThat(index.lookup(n.resolve("f.txt")).orElseThrow().id()).isEqualTo(moved.id());
        }
    }
}
