package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * How scans meet permission denied on a real filesystem: a directory that cannot be listed or searched keeps its rows,
 * and an unreadable root fails the scan and deletes nothing. A dialect's test extends this class and says in
 * {@link #database()} which database to use, exactly as for {@link FsIndexConformanceTest}.
 *
 * <p>Root ignores permission bits, so when the tests run as root they scan in a child JVM started through
 * {@code setpriv} without {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH} (see {@link ScanInChildProcess});
 * otherwise they scan in this JVM. A test that cannot get the environment it needs fails and says why; none is skipped.
 */
public abstract class FilesystemPermissionConformanceTest extends FilesystemFixture {

    @Test
    void aDirectoryThatCannotBeListedIsReportedAndItsRowsKept() throws IOException {
        Path root = tree("open/", "open/gone.txt", "open/stays.txt",
                "locked/", "locked/keep.txt", "locked/deeper/", "locked/deeper/d.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Files.delete(root.resolve("open/gone.txt"));
        Path locked = root.resolve("locked");

        ChildScan child = withPermissions(locked, "---------", () -> scanWithoutPermissionOverride(root, locked));

        assertThat(child.errors()).containsExactly("ACCESS_DENIED " + locked);
        // The scan was complete elsewhere (it swept gone.txt) yet deleted nothing below the locked directory.
        assertThat(child.count("deleted")).isEqualTo(1);
        assertThat(stored(root.resolve("open/gone.txt"))).isEmpty();
        for (String kept : List.of("locked", "locked/keep.txt", "locked/deeper", "locked/deeper/d.txt")) {
            assertThat(row(kept, root)).as(kept).isPresent();
        }
    }

    @Test
    void aDirectoryThatCanBeReadButNotSearchedKeepsItsEntriesRows() throws IOException {
        Path root = tree("listable/", "listable/keep.txt", "listable/sub/", "listable/sub/s.txt",
                "listable/removed.txt", "other.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path listable = root.resolve("listable");
        StoredRow keepBefore = row("listable/keep.txt", root).orElseThrow();
        Files.delete(listable.resolve("removed.txt"));

        ChildScan child = withPermissions(listable, "r--------",
                () -> scanWithoutPermissionOverride(root, listable.resolve("keep.txt")));

        // Names can be read, attributes cannot: each entry is reported, and its row is kept exactly as it was.
        assertThat(child.errors()).containsExactlyInAnyOrder("ACCESS_DENIED " + listable.resolve("keep.txt"),
                "ACCESS_DENIED " + listable.resolve("sub"));
        assertThat(row("listable/keep.txt", root)).contains(keepBefore);
        assertThat(row("listable/sub", root)).isPresent();
        assertThat(row("listable/sub/s.txt", root)).isPresent();
        // The listing itself was complete, so a name no longer in it is gone.
        assertThat(child.count("deleted")).isEqualTo(1);
        assertThat(row("listable/removed.txt", root)).isEmpty();
    }

    @Test
    void anUnreadableRootFailsTheScanAndDeletesNothing() throws IOException {
        Path root = tree("a/", "a/f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Trees.delete(root.resolve("a/f.txt"));   // would be swept by a scan that could read the root

        ChildScan child = withPermissions(root, "---------", () -> scanWithoutPermissionOverride(root, root));

        assertThat(child.exitCode()).as(child.toString()).isEqualTo(ScanInChildProcess.FAILED);
        assertThat(child.failure()).contains("nothing was deleted");
        assertThat(row("a/f.txt", root)).isPresent();
    }

    @Test
    void aRootInsideAnUnsearchableDirectoryFailsTheScanAndDeletesNothing() throws IOException {
        Path root = tree("inner/", "inner/f.txt");
        Path inner = root.resolve("inner");
        FsIndex index = openIndex();
        index.scan(inner);
        Trees.delete(inner.resolve("f.txt"));

        ChildScan child = withPermissions(root, "---------", () -> scanWithoutPermissionOverride(inner, inner));

        assertThat(child.exitCode()).as(child.toString()).isEqualTo(ScanInChildProcess.FAILED);
        assertThat(child.failure()).contains("nothing was deleted");
        assertThat(row("inner/f.txt", root)).isPresent();
    }

    /** What a scan without permission overrides printed; see {@link ScanInChildProcess}. */
    record ChildScan(int exitCode, List<String> lines, String diagnostics) {
        List<String> errors() {
            return lines.stream().filter(l -> l.startsWith("error ")).map(l -> l.substring(6)).toList();
        }

        long count(String name) {
            String result = lines.stream().filter(l -> l.startsWith("result ")).findFirst()
                    .orElseThrow(() -> new AssertionError("the scan printed no result: " + this));
            for (String field : result.substring(7).split(" ")) {
                if (field.startsWith(name + "=")) {
                    return Long.parseLong(field.substring(name.length() + 1));
                }
            }
            throw new AssertionError("no " + name + " in " + result);
        }

        String failure() {
            return lines.stream().filter(l -> l.startsWith("failed ")).map(l -> l.substring(7)).findFirst()
                    .orElseThrow(() -> new AssertionError("the scan did not fail: " + this));
        }
    }

    /**
     * Scans {@code root} as a process that permission bits apply to: in this JVM unless it runs as root, else in a
     * child JVM without {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH}. Each {@code expectDenied} path is
     * first checked to be unreadable there, so the test cannot pass vacuously.
     */
    private ChildScan scanWithoutPermissionOverride(Path root, Path... expectDenied) throws IOException {
        Properties properties = database().properties(prefix());
        List<String> args = new ArrayList<>();
        Path propertiesFile = ChildJava.writeSettings(properties, Files.createTempFile(tmp, "index", ".properties"));
        args.add(propertiesFile.toString());
        args.add(root.toString());
        for (Path p : expectDenied) {
            args.add("--expect-denied");
            args.add(p.toString());
        }
        ChildScan scan;
        if (!runningAsRoot()) {
            List<String> out = new ArrayList<>();
            int exit = ScanInChildProcess.run(properties, args.toArray(String[]::new), out);
            scan = new ChildScan(exit, out, "(scanned in this JVM: not running as root)");
        } else {
            scan = runChildWithoutDacCapabilities(properties, args);
        }
        if (scan.exitCode() == ScanInChildProcess.ENVIRONMENT || scan.exitCode() != 0
                && scan.exitCode() != ScanInChildProcess.FAILED) {
            fail("cannot run the scan without permission overrides, so the test proves nothing: " + scan);
        }
        return scan;
    }

    private static ChildScan runChildWithoutDacCapabilities(Properties properties, List<String> args)
            throws IOException {
        Path setpriv = Stream.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv").map(Path::of)
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("tests run as root, which ignores permission bits, and"
                        + " setpriv (util-linux) is not installed to drop CAP_DAC_OVERRIDE for the scan: install"
                        + " util-linux or run the tests as an ordinary user"));
        List<String> command = new ArrayList<>(List.of(setpriv.toString(), "--inh-caps=-all", "--ambient-caps=-all",
                "--bounding-set=-dac_override,-dac_read_search"));
        command.addAll(ChildJava.command(properties, List.of(), ScanInChildProcess.class.getName(), args));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        p.getOutputStream().close();
        // Drain stderr on its own thread so a chatty child cannot block on a full pipe.
        StringBuilder stderr = new StringBuilder();
        Thread drain = new Thread(() -> {
            try {
                stderr.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // The child died; its exit code says what matters.
            }
        });
        drain.start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(HANG_GUARD.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("the child scan did not end: " + stdout);
            }
            drain.join();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the child scan", e);
        }
        return new ChildScan(p.exitValue(), stdout.lines().toList(), stderr.toString());
    }

    private interface Action<T> {
        T run() throws IOException;
    }

    /** Runs {@code action} with {@code path} set to {@code permissions}, restoring owner access afterwards. */
    private static <T> T withPermissions(Path path, String permissions, Action<T> action) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
        try {
            return action.run();
        } finally {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
