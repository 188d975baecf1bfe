package io.fsindex.sqlite;

import io.fsindex.testkit.QueryConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Find, directory sizes and duplicates on SQLite. */
class SqliteQueryTest extends QueryConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("query.db"), null, null);
    }
}
