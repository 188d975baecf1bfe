package io.fsindex.sqlite;

import io.fsindex.testkit.ChangeFeedContentConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

class SqliteChangeFeedContentTest extends ChangeFeedContentConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("feed-content.db"), null, null);
    }
}
