package io.fsindex.sqlite;

import io.fsindex.testkit.ScanRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteRaceTest extends ScanRaceConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("races.db"), null, null);
    }
}
