package io.fsindex.sqlite;

import io.fsindex.testkit.ChangeFeedConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

class SqliteChangeFeedTest extends ChangeFeedConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("index.db"), null, null);
    }
}
