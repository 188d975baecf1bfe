package io.fsindex.sqlite;

import io.fsindex.testkit.ScanPropertyConformanceTest;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

class SqlitePropertyTest extends ScanPropertyConformanceTest {
    // jqwik does not run Jupiter's @TempDir, so the class's database directory is made and removed here.
    private static Path dbDir;

    @BeforeContainer
    static void createDatabaseDirectory() throws IOException {
        dbDir = Files.createTempDirectory("fsindex-sqlite-property");
    }

    @AfterContainer
    static void deleteDatabaseDirectory() {
        try {
            Trees.delete(dbDir);
        } catch (UncheckedIOException stillInUse) {
            // Only after a failure: jqwik abandons a shrinking try at its time bound while the try still runs.
        }
    }

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("property.db"), null, null);
    }
}
