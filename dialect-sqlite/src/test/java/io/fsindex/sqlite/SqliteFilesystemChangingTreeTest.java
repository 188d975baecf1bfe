package io.fsindex.sqlite;

import io.fsindex.testkit.FilesystemChangingTreeConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteFilesystemChangingTreeTest extends FilesystemChangingTreeConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("changing-tree.db"), null, null);
    }
}
