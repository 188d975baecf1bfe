package io.fsindex.sqlite;

import io.fsindex.testkit.SchemaCreationConformanceTest;
import io.fsindex.testkit.TestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteSchemaCreationTest extends SchemaCreationConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("creation.db"), null, null);
    }
}
