package io.fsindex.sqlite;

import io.fsindex.testkit.ScanSweepRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteSweepRaceTest extends ScanSweepRaceConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("sweep-races.db"), null, null);
    }
}
