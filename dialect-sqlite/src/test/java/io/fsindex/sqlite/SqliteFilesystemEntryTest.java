package io.fsindex.sqlite;

import io.fsindex.testkit.FilesystemEntryConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteFilesystemEntryTest extends FilesystemEntryConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("filesystem-entries.db"), null, null);
    }
}
