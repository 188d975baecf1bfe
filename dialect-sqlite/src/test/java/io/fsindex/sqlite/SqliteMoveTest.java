package io.fsindex.sqlite;

import io.fsindex.testkit.MoveConformanceTest;
import io.fsindex.testkit.TestDatabase;
import org.junit.jupiter.api.io.TempDir;

class SqliteMoveTest extends MoveConformanceTest {
    @TempDir
    static java.nio.file.Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("moves.db"), null, null);
    }
}
