package io.fsindex.sqlite;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.WatchScopeConformanceTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** What a watch registers under the stored rules, on SQLite. */
class SqliteWatchScopeTest extends WatchScopeConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("watch-scope.db"), null, null);
    }
}
