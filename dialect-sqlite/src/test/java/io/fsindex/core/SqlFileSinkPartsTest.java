package io.fsindex.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileSink;
import io.fsindex.api.ScanListener;
import io.fsindex.api.WalkedEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory listed in parts is applied part by part, each in its own transaction, so a newer scan can claim the
 * directory between two parts. From then on the older scan's parts must not be applied (what the newer scan saw
 * stands), and neither may its check for missing rows run: here its last part still lists a file the newer scan
 * found deleted, which applying it would bring back. The parts are staged; a real scan makes them from a huge
 * directory.
 */
class SqlFileSinkPartsTest {
    @TempDir
    Path tmp;

    @Test
    void partsAfterANewerScanClaimedTheDirectoryAreNotApplied() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        Path big = Files.createDirectories(root.resolve("big"));
        for (int i = 0; i < 10; i++) {
            Files.writeString(big.resolve("f" + i), "file " + i);
        }
        String url = "jdbc:sqlite:" + tmp.resolve("index.db");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
            index.scan(root);
            long bigId = index.lookup(big).orElseThrow().id();
            long rootId = index.lookup(root).orElseThrow().id();
            FileSink.Directory dir = new FileSink.Directory(bigId, rootId, "big", big);
            List<WalkedEntry> listing = new NioWalker().list(big).entries();
            Files.writeString(big.resolve("new"), "created after the older scan listed big");

            try (Connection c = index.db.connect()) {
                long older = index.insertScanRow(c, root.toString());
                SqlFileSink sink = new SqlFileSink(index.db, index.statements, c, older, new NioWalker(),
                        new ScanListener() {
                        }, FeedSettings.DEFAULTS, false);
                SqlFileSink.PartTally parts = new SqlFileSink.PartTally();
                FileSink.Applied first = sink.applyPart(dir, listing.subList(0, 5), parts, false);
                assertThat(first.unchanged()).isEqualTo(5);

                Path deleted = big.resolve(listing.get(7).name());
                Files.delete(deleted);
                index.scan(root);               // newer: claims big, records the deletion and the new file
                assertThat(index.lookup(deleted)).isEmpty();

                FileSink.Applied last = sink.applyPart(dir, listing.subList(5, 10), parts, true);
                assertThat(last.unchanged()).isZero();
                assertThat(last.skipped()).isEqualTo(5);
                sink.finish(true);
            }
            assertThat(index.lookup(big.resolve(listing.get(7).name()))).isEmpty();
            assertThat(index.lookup(big.resolve("new"))).isPresent();
            assertThat(index.children(big)).hasSize(10);
        }
    }
}
