package io.fsindex.sqlite;

import io.fsindex.testkit.ScanKindChangeRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteKindChangeRaceTest extends ScanKindChangeRaceConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("kind-change-races.db"), null, null);
    }
}
