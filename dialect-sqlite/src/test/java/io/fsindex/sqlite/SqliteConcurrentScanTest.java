package io.fsindex.sqlite;

import io.fsindex.testkit.ConcurrentScanConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteConcurrentScanTest extends ConcurrentScanConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("concurrent.db"), null, null);
    }
}
