package io.fsindex.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileSink;
import io.fsindex.api.ScanListener;
import io.fsindex.core.spi.FsTables;
import io.fsindex.sqlite.SqliteDialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One group whose second wave moves a row its first wave inserted: the first wave's added rows are held until the
 * feed head is locked and read back then, so they must be written before the move, or the file would be recorded
 * added at its new place (or the transaction would fail on the count). A file moved on disk between the walker's
 * listings of its old and new directories is what makes this happen in a real scan; here the listings are staged.
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

            SqliteDialect dialect = new SqliteDialect();
            DataSource ds = dialect.openDataSource(url, null, null);
            Database db = new Database(ds, dialect, Duration.ofSeconds(30));
            Statements st = new Statements(dialect, new FsTables("fsindex_"));
            try (Connection c = db.connect()) {
                long scan;
                try (Sql.Bound q = st.insertScan.prepareReturningId(c)) {
                    q.set("root", a.toString()).set("now", System.currentTimeMillis()).statement.executeUpdate();
                    try (var keys = q.statement.getGeneratedKeys()) {
                        keys.next();
                        scan = keys.getLong(1);
                    }
                }
                SqlFileSink sink = new SqlFileSink(db, st, c, scan, walker, new ScanListener() {
                }, FeedSettings.DEFAULTS, false);
                List<SqlFileSink.GroupResult> results = sink.applyGroup(Arrays.asList(a, n),
                        Arrays.asList(new FileSink.Directory(aId, rootId, "a", a), null),
                        List.of(listingOfA, listingOfN));
                assertThat(results).allSatisfy(r -> assertThat(r.applied()).isNotNull());
                sink.finish(true);
            } finally {
                if (ds instanceof AutoCloseable closeable) {
                    closeable.close();
                }
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
