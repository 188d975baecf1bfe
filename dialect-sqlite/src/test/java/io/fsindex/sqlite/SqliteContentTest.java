package io.fsindex.sqlite;

import io.fsindex.testkit.ContentConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Content hashing and garbage collection on SQLite. */
class SqliteContentTest extends ContentConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("content.db"), null, null);
    }
}
