package io.fsindex.sqlite;

import io.fsindex.core.write.SqlFileSinkWaveConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

/** The staged sink interleavings of waves and parts on SQLite. */
class SqliteSinkWaveTest extends SqlFileSinkWaveConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("sink-waves.db"), null, null);
    }
}
