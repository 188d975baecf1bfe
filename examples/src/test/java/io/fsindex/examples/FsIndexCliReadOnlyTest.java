package io.fsindex.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands that only read ({@code info}, {@code ls}, {@code changes}) need no write access and create nothing. */
class FsIndexCliReadOnlyTest {
    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return FsIndexCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /**
     * The directory and the database file are made unwritable by the kernel (for a user, by their permissions; for
     * root, whom permissions do not stop, also by the immutable attribute), and proven so by a failed write; so the
     * reads succeeding proves they need no write access, and the directory's listing and the file's bytes staying
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

        boolean immutable = makeUnwritable(dir, file);
        try {
            assertThat(run("info", "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("entries:").contains("COMPLETED");
            assertThat(run("ls", tree.toString(), "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("a.txt");
            assertThat(run("changes", "--db", db)).as(err.toString()).isZero();
            assertThat(out.toString()).contains(" ADDED FILE " + tree.toRealPath().resolve("a.txt"));
        } finally {
            makeWritable(dir, file, immutable);
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

    /** Returns whether the immutable attribute was needed (and so must be taken off again). */
    private static boolean makeUnwritable(Path dir, Path file) throws Exception {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (!isWritable(dir)) {
            return false;
        }
        command("chattr", "+i", file.toString(), dir.toString());  // root: permissions do not stop it, this does
        if (isWritable(dir)) {
            command("chattr", "-i", file.toString(), dir.toString());
            fail("cannot make %s unwritable: running as root, this test needs a filesystem with the immutable"
                    + " attribute (chattr +i), such as ext4, xfs or btrfs", dir);
        }
        return true;
    }

    private static void makeWritable(Path dir, Path file, boolean immutable) throws Exception {
        if (immutable) {
            command("chattr", "-i", file.toString(), dir.toString());
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static boolean isWritable(Path dir) {
        Path probe = dir.resolve("probe");
        try {
            Files.createFile(probe);
            Files.delete(probe);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    private static void command(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + output);
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
