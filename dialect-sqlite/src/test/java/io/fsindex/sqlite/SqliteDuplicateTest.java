package io.fsindex.sqlite;

import io.fsindex.testkit.DuplicateConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Duplicates by content hash and by fingerprint on SQLite. */
class SqliteDuplicateTest extends DuplicateConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("query.db"), null, null);
    }
}
