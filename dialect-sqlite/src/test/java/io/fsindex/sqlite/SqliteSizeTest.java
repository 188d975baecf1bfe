package io.fsindex.sqlite;

import io.fsindex.testkit.SizeConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Directory sizes on SQLite. */
class SqliteSizeTest extends SizeConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("query.db"), null, null);
    }
}
