package io.fsindex.sqlite;

import io.fsindex.testkit.ScopeMountConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteScopeMountTest extends ScopeMountConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("scope-mount.db"), null, null);
    }
}
