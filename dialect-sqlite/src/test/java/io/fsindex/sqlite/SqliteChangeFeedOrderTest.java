package io.fsindex.sqlite;

import io.fsindex.testkit.ChangeFeedOrderConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

class SqliteChangeFeedOrderTest extends ChangeFeedOrderConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("feed-order.db"), null, null);
    }
}
