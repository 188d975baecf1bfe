package io.fsindex.sqlite;

import io.fsindex.testkit.DirectoryScanConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Directory scans and their races on SQLite. */
class SqliteDirectoryScanTest extends DirectoryScanConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("directory-scans.db"), null, null);
    }
}
