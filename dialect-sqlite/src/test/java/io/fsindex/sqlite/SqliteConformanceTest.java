package io.fsindex.sqlite;

import io.fsindex.testkit.FsIndexConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteConformanceTest extends FsIndexConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("conformance.db"), null, null);
    }
}
