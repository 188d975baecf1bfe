package io.fsindex.sqlite;

import io.fsindex.testkit.ScanClaimRaceConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteClaimRaceTest extends ScanClaimRaceConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("claim-races.db"), null, null);
    }
}
