package io.fsindex.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.Trees;
import io.fsindex.testkit.Unwritable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A read-only index on an SQLite file: needs no write access to the file or its directory, and creates nothing. */
class SqliteReadOnlyTest {
    @TempDir
    Path tmp;

    @Test
    void aReaderOfAFileThatIsNotThereSaysSoAndCreatesNothing() throws IOException {
        Path file = tmp.resolve("missing.db");

        assertThatThrownBy(() -> FsIndex.builder().jdbcUrl("jdbc:sqlite:" + file).buildReader())
                .isInstanceOf(FsIndexException.class).hasMessageStartingWith("no index at " + file);
        assertThat(listing(tmp)).isEmpty();
    }

    /**
     * The directory and the file are made unwritable by the kernel and proven so (see {@link Unwritable}), with no
     * connection open, so no -wal or -shm file exists for SQLite to read through: reading succeeding proves it needs
     * no write access; the directory's listing and the file's bytes staying the same prove nothing was written.
     */
    @Test
    void aReaderReadsAFileInAnUnwritableDirectoryAndWritesNothing() throws IOException {
        Path root = tmp.resolve("tree");
        Trees.create(root, "d/", "d/a.txt");
        root = root.toRealPath();
        Path dir = Files.createDirectories(tmp.resolve("index"));
        Path file = dir.resolve("index.db");
        String url = "jdbc:sqlite:" + file;
        try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
            index.scan(root);
        }
        List<String> listing = listing(dir);
        byte[] bytes = Files.readAllBytes(file);
        assertThat(listing).containsExactly("index.db");

        try (Unwritable locked = Unwritable.make(dir, file);
             IndexReader reader = FsIndex.builder().jdbcUrl(url).buildReader()) {
            assertThat(reader.lookup(root.resolve("d/a.txt"))).isPresent();
            assertThat(reader.children(root.resolve("d"))).extracting(FileEntry::name).containsExactly("a.txt");
            assertThat(reader.info(5).recentScans()).hasSize(1);
            assertThat(reader.changesSince(0, 100).changes()).isNotEmpty();
        }
        assertThat(listing(dir)).isEqualTo(listing);
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
