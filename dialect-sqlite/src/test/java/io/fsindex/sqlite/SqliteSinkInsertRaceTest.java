package io.fsindex.sqlite;

import io.fsindex.core.write.SqlFileSinkInsertRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

/** The staged sink interleavings of inserts on SQLite. */
class SqliteSinkInsertRaceTest extends SqlFileSinkInsertRaceConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("sink-inserts.db"), null, null);
    }
}
