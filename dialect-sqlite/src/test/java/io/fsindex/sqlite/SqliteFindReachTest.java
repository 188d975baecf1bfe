package io.fsindex.sqlite;

import io.fsindex.testkit.FindReachConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Finds below the only root, below one of two roots, and their pages, on SQLite. */
class SqliteFindReachTest extends FindReachConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("query.db"), null, null);
    }
}
