package io.fsindex.sqlite;

import io.fsindex.testkit.FilesystemPermissionConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteFilesystemPermissionTest extends FilesystemPermissionConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("filesystem-permissions.db"), null, null);
    }
}
