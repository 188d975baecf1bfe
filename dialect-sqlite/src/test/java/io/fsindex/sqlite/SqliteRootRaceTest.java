package io.fsindex.sqlite;

import io.fsindex.testkit.ScanRootRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteRootRaceTest extends ScanRootRaceConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("root-races.db"), null, null);
    }
}
