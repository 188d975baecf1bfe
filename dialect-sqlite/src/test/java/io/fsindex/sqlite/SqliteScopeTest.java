package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.ScopeConformanceTest;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteScopeTest extends ScopeConformanceTest {
    @TempDir
    static Path dbDir;

    @Override
    protected TestDatabase database() {
        return new TestDatabase("jdbc:sqlite:" + dbDir.resolve("scope.db"), null, null);
    }

    /** An index kept inside the tree it scans never indexes its own files (the database, -wal, -shm, -journal). */
    @Test
    void theIndexsOwnFilesAreNeverScanned() throws Exception {
        Path root = tree("a.txt", "sub/b.txt");
        try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + root.resolve("sub/own.db")).build()) {
            index.scan(root);
            Files.writeString(root.resolve("sub/own.db-journal"), "");
            ScanResult again = index.scan(root);
            assertThat(Trees.inIndex(index, root).keySet()).containsExactlyInAnyOrder("a.txt", "sub", "sub/b.txt");
            assertThat(again.added()).isZero();
            assertThat(again.deleted()).isZero();
        }
    }
}
