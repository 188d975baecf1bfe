package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.IndexInfo;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.LocaleFreeJvm;
import io.fsindex.testkit.ScanInChildProcess;
import io.fsindex.testkit.TestDatabase;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started with no locale reads file names as ASCII: the library refuses to scan there, at the start, before
 * its first statement, so the refusal is the same on every engine and SQLite stands for all of them.
 */
class SqliteWithoutLocaleTest {
    @TempDir
    Path tmp;

    @Test
    void aScanInAJvmWithoutALocaleFailsAtTheStartNamingTheFixAndWritesNothing() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        Files.writeString(root.resolve("caf\u00e9.txt"), "x");
        Files.writeString(root.resolve("plain.txt"), "y");
        TestDatabase db = new TestDatabase("jdbc:sqlite:" + tmp.resolve("index.db"), null, null);
        String prefix = TestDatabase.freshPrefix();
        Path properties = tmp.resolve("index.properties");
        try (Writer w = Files.newBufferedWriter(properties)) {
            db.properties(prefix).store(w, null);
        }

        LocaleFreeJvm.Output child = LocaleFreeJvm.run(ScanInChildProcess.class.getName(), properties.toString(),
                root.toString());

        assertThat(child.exitCode()).as(child.toString()).isEqualTo(2);
        assertThat(child.stdout()).as(child.toString()).startsWith("failed cannot scan " + root)
                .contains("reads file names as ANSI_X3.4-1968, not UTF-8").contains("nothing was written")
                .contains("run the JVM with a UTF-8 locale, e.g. LC_ALL=C.UTF-8");
        try (FsIndex index = db.builder(prefix).build()) {
            IndexInfo info = index.info(10);
            assertThat(info.recentScans()).isEmpty();
            assertThat(info.files() + info.directories()).isZero();
            assertThat(index.changeFeedEnd()).isZero();
        }
    }
}
