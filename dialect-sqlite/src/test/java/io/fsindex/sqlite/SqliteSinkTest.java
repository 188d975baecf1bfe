package io.fsindex.sqlite;

import io.fsindex.core.write.SqlFileSinkConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

/** The staged sink interleavings on SQLite. */
class SqliteSinkTest extends SqlFileSinkConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("index.db"), null, null);
    }
}
