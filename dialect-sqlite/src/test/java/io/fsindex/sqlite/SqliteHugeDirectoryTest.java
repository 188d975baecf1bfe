package io.fsindex.sqlite;

import io.fsindex.testkit.HugeDirectoryConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A huge directory changing while it is listed, on SQLite. */
class SqliteHugeDirectoryTest extends HugeDirectoryConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("huge.db"), null, null);
    }
}
