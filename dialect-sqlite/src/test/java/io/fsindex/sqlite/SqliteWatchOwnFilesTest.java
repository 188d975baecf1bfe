package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A watch of a tree holding its own SQLite database does not rescan because of its own commits. */
class SqliteWatchOwnFilesTest {
    @TempDir
    Path tmp;

    @Test
    void theIndexsOwnCommitsCallForNoScan() throws Exception {
        Path root = tmp.toRealPath();
        try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + root.resolve("index.db")).build();
             IndexWatch watch = index.watch(root, WatchOptions.defaults().withSettle(Duration.ofMillis(50)))) {
            Files.writeString(root.resolve("file.txt"), "x");
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (index.lookup(root.resolve("file.txt")).isEmpty()) {
                assertThat(System.nanoTime()).as("the new file never reached the index").isLessThan(deadline);
                Thread.sleep(20);   // the watch works on threads of its own: only polling shows its progress
            }
            Thread.sleep(500);      // ten settle windows: any scan the last commit called for has run
            long scans = watch.state().scans();
            Thread.sleep(1000);
            assertThat(watch.state().scans()).as("scans called for by the index's own commits").isEqualTo(scans);
        }
    }
}
