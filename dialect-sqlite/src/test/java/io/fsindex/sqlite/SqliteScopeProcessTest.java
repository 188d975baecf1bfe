package io.fsindex.sqlite;

import io.fsindex.testkit.ScopeProcessConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Stored rules across processes on one SQLite file. */
class SqliteScopeProcessTest extends ScopeProcessConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("scope-process.db"), null, null);
    }
}
