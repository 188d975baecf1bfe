package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.testkit.Unwritable;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands that only read ({@code info}, {@code ls}, {@code changes}) need no write access and create nothing. */
class FsIndexCliReadOnlyTest {
    @TempDir
    Path tmp;

    private final CliRun cli = new CliRun();
    private final StringWriter out = cli.out;
    private final StringWriter err = cli.err;

    private int run(String... args) {
        return cli.run(args);
    }

    /**
     * The directory and the database file are made unwritable by the kernel and proven so (see {@link Unwritable}),
     * so the reads succeeding proves they need no write access; the directory's listing and the file's bytes staying
     * the same prove they wrote nothing (no journal, -wal or -shm file either).
     */
    @Test
    void readsWorkOnADatabaseInAReadOnlyDirectoryAndWriteNothing() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        Files.writeString(tree.resolve("a.txt"), "hello");
        Path dir = Files.createDirectories(tmp.resolve("index"));
        Path file = dir.resolve("cli.db");
        String db = "jdbc:sqlite:" + file;
        assertThat(run("scan", tree.toString(), "--db", db)).isZero();
        List<String> listing = listing(dir);
        String bytes = sha256(file);

        try (Unwritable locked = Unwritable.make(dir, file)) {
            assertThat(run("info", "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("entries:").contains("COMPLETED");
            assertThat(run("ls", tree.toString(), "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("a.txt");
            assertThat(run("changes", "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains(" ADDED FILE " + tree.toRealPath().resolve("a.txt"));
        }
        assertThat(listing(dir)).isEqualTo(listing);
        assertThat(sha256(file)).isEqualTo(bytes);
    }

    @Test
    void readingADatabaseThatIsNotThereSaysSoAndCreatesNothing() throws IOException {
        Path file = tmp.resolve("missing.db");
        String db = "jdbc:sqlite:" + file;
        for (List<String> read : List.of(List.of("info"), List.of("ls", tmp.toString()), List.of("changes"))) {
            String[] args = Stream.concat(read.stream(), Stream.of("--db", db)).toArray(String[]::new);
            assertThat(run(args)).as(read.toString()).isEqualTo(1);
            assertThat(err.toString()).as(read.toString()).startsWith("fsindex: no index at " + file);
            assertThat(listing(tmp)).as(read.toString()).isEmpty();
        }
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
