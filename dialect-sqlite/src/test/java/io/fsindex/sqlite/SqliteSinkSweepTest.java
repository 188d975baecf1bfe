package io.fsindex.sqlite;

import io.fsindex.core.write.SqlFileSinkSweepConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

/** The staged sink interleavings of sweeps on SQLite. */
class SqliteSinkSweepTest extends SqlFileSinkSweepConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("sink-sweeps.db"), null, null);
    }
}
