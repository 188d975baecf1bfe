package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FileKind;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scan bugs first seen in the concurrency tests here, pinned down deterministically. */
class SqliteScanRegressionTest {
    @TempDir
    Path tmp;

    /**
     * Found by the multi-process test: when a file is replaced by a directory of the same name and nothing else in
     * the parent is new, the parent's listing updated the row to DIRECTORY but decided whether to descend from the
     * rows read before the update (still FILE), so the new directory's contents were never recorded.
     */
    @Test
    void aFileReplacedByADirectoryIsDescendedInto() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "flip", "other.txt");
        try (FsIndex index = FsIndex.builder().jdbcUrl("jdbc:sqlite:" + tmp.resolve("index.db")).build()) {
            index.scan(root);

            Files.delete(root.resolve("flip"));
            Trees.create(root, "flip/inside");
            index.scan(root);

            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        }
    }

    /** The reverse: a directory replaced by a file must take the directory's recorded contents with it. */
    @Test
    void aDirectoryReplacedByAFileLeavesNoRowsBelowIt() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "flip/", "flip/inside", "flip/deeper/", "flip/deeper/x", "other.txt");
        String url = "jdbc:sqlite:" + tmp.resolve("index.db");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
            index.scan(root);

            Trees.delete(root.resolve("flip"));
            Files.writeString(root.resolve("flip"), "now a file");
            index.scan(root);

            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
            assertThat(index.lookup(root.resolve("flip/inside"))).isEmpty();
            assertThat(index.children(root.resolve("flip"))).isEmpty();
            assertThat(RawSqlite.queryLong(url, "SELECT COUNT(*) FROM fsindex_files WHERE name IN ('inside', 'deeper', 'x')"))
                    .isZero();
        }
    }

    /** The same when the directory that became a file is the scan's own root. */
    @Test
    void aScanRootThatBecameAFileLeavesNoRowsBelowIt() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "sub/", "sub/inside", "sub/deeper/", "sub/deeper/x");
        String url = "jdbc:sqlite:" + tmp.resolve("index.db");
        try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
            index.scan(root);

            Trees.delete(root.resolve("sub"));
            Files.writeString(root.resolve("sub"), "now a file");
            index.scan(root.resolve("sub"));

            assertThat(index.lookup(root.resolve("sub")).orElseThrow().kind()).isEqualTo(FileKind.FILE);
            assertThat(index.lookup(root.resolve("sub/inside"))).isEmpty();
            assertThat(RawSqlite.queryLong(url, "SELECT COUNT(*) FROM fsindex_files WHERE name IN ('inside', 'deeper', 'x')"))
                    .isZero();
        }
    }
}
