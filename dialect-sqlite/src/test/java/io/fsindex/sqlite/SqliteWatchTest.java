package io.fsindex.sqlite;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchConformanceTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Watching a tree on SQLite. */
class SqliteWatchTest extends WatchConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("watch.db"), null, null);
    }
}
