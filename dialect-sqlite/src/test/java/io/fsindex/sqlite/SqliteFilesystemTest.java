package io.fsindex.sqlite;

import io.fsindex.testkit.FilesystemConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteFilesystemTest extends FilesystemConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("filesystem.db"), null, null);
    }
}
