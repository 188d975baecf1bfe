package io.fsindex.sqlite;

import io.fsindex.testkit.ScanLifecycleConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteScanLifecycleTest extends ScanLifecycleConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("lifecycle.db"), null, null);
    }
}
