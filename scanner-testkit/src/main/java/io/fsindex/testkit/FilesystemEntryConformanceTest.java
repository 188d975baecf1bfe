package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * How scans record what a real filesystem holds besides plain files and directories: symbolic links (recorded,
 * optionally followed, loops caught), special files (recorded, never opened), and names and link targets that cannot be
 * decoded or hold control characters. A dialect's test extends this class and says in {@link #database()} which
 * database to use, exactly as for {@link FsIndexConformanceTest}.
 *
 * <p>A test that cannot get the environment it needs (device nodes need root or a block device in {@code /dev}) fails
 * and says why; none is skipped.
 */
public abstract class FilesystemEntryConformanceTest extends FilesystemFixture {

    private static final FileTime LINK_MTIME = FileTime.fromMillis(1_300_000_000_123L);

    @Test
    void linksAreRecordedWithTheirOwnAttributesAndTargetAndNotFollowed() throws IOException {
        Path root = tree("dir/", "dir/inside.txt");
        Files.writeString(root.resolve("target.txt"), "x".repeat(100));
        String[][] links = {
                {"toDir", "dir"},
                {"toFile", "target.txt"},
                {"dangling", "no/such//place/./"},       // kept byte for byte, redundant slashes included
                {"absolute", root.resolve("dir").toString()},
                {"spaced", " dir "},
        };
        for (String[] l : links) {
            Path link = root.resolve(l[0]);
            run("ln", "-s", "--", l[1], link.toString());    // Path.of would normalise the target
            Files.getFileAttributeView(link, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(LINK_MTIME, null, null);
        }
        FsIndex index = openIndex();

        ScanResult r = index.scan(root);

        assertThat(r.errors()).isEmpty();
        for (String[] l : links) {
            Path link = root.resolve(l[0]);
            FileEntry e = index.lookup(link).orElseThrow();
            assertThat(e.kind()).as(l[0]).isEqualTo(FileKind.SYMLINK);
            assertThat(e.linkTarget()).as(l[0]).isEqualTo(l[1]);
            // lstat, not stat: the link's own size (its target's length) and its own mtime.
            assertThat(e.size()).as(l[0]).isEqualTo(l[1].getBytes(StandardCharsets.UTF_8).length);
            assertThat(e.mtime()).as(l[0]).isEqualTo(LINK_MTIME.toInstant());
            assertThat(storedChildren(link)).as("nothing recorded through " + l[0]).isEmpty();
        }
        assertThat(index.lookup(root.resolve("target.txt")).orElseThrow().mtime())
                .isNotEqualTo(LINK_MTIME.toInstant());

        ScanResult again = index.scan(root);
        assertThat(again.added() + again.modified() + again.deleted()).isZero();
    }

    @Test
    void followingLinksIndexesADirectoryLinkUnderTheLinksOwnPath() throws IOException {
        Path root = tree("dir/", "dir/sub/", "dir/sub/f.txt", "dir/g.txt");
        Files.createSymbolicLink(root.resolve("first"), Path.of("dir"));
        Files.createSymbolicLink(root.resolve("second"), Path.of("dir")); // same target, not a loop: both followed
        Files.createSymbolicLink(root.resolve("toFile"), Path.of("dir/g.txt"));
        FsIndex index = openIndex();

        ScanResult r = assertTimeoutPreemptively(HANG_GUARD,
                () -> index.scan(root, ScanOptions.defaults().withFollowSymlinks(true)));

        assertThat(r.errors()).isEmpty();
        for (String link : List.of("first", "second")) {
            StoredRow row = stored(root.resolve(link)).orElseThrow();
            assertThat(row.kind()).as(link).isEqualTo(FileKind.DIRECTORY);
            assertThat(row.linkTarget()).as(link).isEqualTo("dir");
            assertThat(storedChildren(root.resolve(link))).as(link).containsExactlyInAnyOrder("sub", "g.txt");
            assertThat(stored(root.resolve(link + "/sub/f.txt"))).as(link).isPresent();
        }
        assertThat(stored(root.resolve("dir/sub/f.txt"))).isPresent();
        StoredRow toFile = stored(root.resolve("toFile")).orElseThrow();
        assertThat(toFile.kind()).isEqualTo(FileKind.FILE);
        assertThat(toFile.linkTarget()).isEqualTo("dir/g.txt");
        assertThat(toFile.size()).isEqualTo(Files.size(root.resolve("dir/g.txt")));
        // The public API finds what was recorded below a followed link under the link's path, too.
        assertThat(index.lookup(root.resolve("first/sub/f.txt"))).get().extracting(FileEntry::path)
                .isEqualTo(root.resolve("first/sub/f.txt"));
        assertThat(index.children(root.resolve("second/sub"))).extracting(FileEntry::name).containsExactly("f.txt");

        // Scanning again without following: the links become links again and what was recorded through them goes
        // (two rows each for "sub" and "sub/f.txt", plus "g.txt"), instead of staying behind under a link row.
        ScanResult plain = index.scan(root);
        assertThat(stored(root.resolve("first")).orElseThrow().kind()).isEqualTo(FileKind.SYMLINK);
        assertThat(storedChildren(root.resolve("first"))).isEmpty();
        assertThat(storedChildren(root.resolve("second"))).isEmpty();
        assertThat(plain.deleted()).isEqualTo(6);
        assertThat(stored(root.resolve("dir/sub/f.txt"))).isPresent();
    }

    @Test
    void linkLoopsAreReportedAndNeverFollowedForever() throws IOException {
        Path root = tree("a/", "a/f.txt");
        Files.createSymbolicLink(root.resolve("a/back"), Path.of(".."));      // to an ancestor inside the tree
        Files.createSymbolicLink(root.resolve("up"), Path.of(".."));          // to the scan root's own parent
        Files.createSymbolicLink(root.resolve("self"), Path.of("self"));      // the OS itself reports ELOOP
        Files.createSymbolicLink(root.resolve("ping"), Path.of("pong"));
        Files.createSymbolicLink(root.resolve("pong"), Path.of("ping"));
        FsIndex index = openIndex();

        ScanResult r = assertTimeoutPreemptively(HANG_GUARD,
                () -> index.scan(root, ScanOptions.defaults().withFollowSymlinks(true)));

        assertThat(r.errors()).extracting(ScanError::reason).containsOnly(ScanError.Reason.SYMLINK_LOOP);
        assertThat(r.errors()).extracting(ScanError::path).containsExactlyInAnyOrder(root.resolve("a/back"),
                root.resolve("up"), root.resolve("self"), root.resolve("ping"), root.resolve("pong"));
        for (String link : List.of("a/back", "up", "self", "ping", "pong")) {
            StoredRow row = stored(root.resolve(link)).orElseThrow();
            assertThat(row.kind()).as(link).isEqualTo(FileKind.SYMLINK);
            assertThat(storedChildren(root.resolve(link))).as(link).isEmpty();
        }
        assertThat(row("a/f.txt", root)).isPresent();
    }

    @Test
    void fifosAndSocketsAreRecordedWithTheirKindAndNeverOpened() throws IOException {
        Path root = tree("plain.txt");
        Path fifo = root.resolve("fifo");
        run("mkfifo", fifo.toString());
        Path socket = root.resolve("socket");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
        }
        Files.createSymbolicLink(root.resolve("toFifo"), Path.of("fifo"));
        FsIndex index = openIndex();

        // Opening the FIFO for reading would block until a writer comes, which never happens: the guard turns
        // that hang into a failure.
        ScanResult plain = assertTimeoutPreemptively(HANG_GUARD, () -> index.scan(root));
        ScanResult following = assertTimeoutPreemptively(HANG_GUARD,
                () -> index.scan(root, ScanOptions.defaults().withFollowSymlinks(true)));

        assertThat(plain.errors()).isEmpty();
        assertThat(following.errors()).isEmpty();
        assertThat(index.lookup(fifo).orElseThrow().kind()).isEqualTo(FileKind.FIFO);
        assertThat(index.lookup(socket).orElseThrow().kind()).isEqualTo(FileKind.SOCKET);
        FileEntry followed = index.lookup(root.resolve("toFifo")).orElseThrow();
        assertThat(followed.kind()).isEqualTo(FileKind.FIFO);
        assertThat(followed.linkTarget()).isEqualTo("fifo");
    }

    @Test
    void devicesAreRecordedWithTheirKindAndNeverOpened() throws IOException {
        Path root = tree("plain.txt");
        Path chr;
        Path blk;
        Path scanned;
        if (runningAsRoot()) {
            chr = root.resolve("chr");
            blk = root.resolve("blk");
            run("mknod", chr.toString(), "c", "1", "3");
            run("mknod", blk.toString(), "b", "7", "0");
            scanned = root;
        } else {
            // Without root no device node can be made; record existing ones, each scanned as a root of its own.
            chr = Path.of("/dev/null");
            blk = existingBlockDevice();
            scanned = null;
        }
        FsIndex index = openIndex();

        assertTimeoutPreemptively(HANG_GUARD, () -> {
            if (scanned != null) {
                assertThat(index.scan(scanned).errors()).isEmpty();
            } else {
                assertThat(index.scan(chr).errors()).isEmpty();
                assertThat(index.scan(blk).errors()).isEmpty();
            }
        });

        assertThat(index.lookup(chr).orElseThrow().kind()).isEqualTo(FileKind.CHAR_DEVICE);
        assertThat(index.lookup(blk).orElseThrow().kind()).isEqualTo(FileKind.BLOCK_DEVICE);
    }

    @Test
    void aNameThatCannotBeDecodedIsReportedAndItsSiblingsRecorded() throws IOException {
        Charset names = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        if (!new String(new byte[] {(byte) 0xff}, names).equals("\ufffd")) {
            fail("this test needs a file-name encoding in which byte 0xFF is invalid (UTF-8, as with LANG=C.UTF-8);"
                    + " this JVM uses " + names);
        }
        Path root = tree("ok.txt", "sub/", "sub/ok2.txt");
        // Java cannot create such names, so the shell does: two files, a directory (with content) and a link whose
        // target is undecodable, and a link whose target really contains U+FFFD (valid UTF-8), which must be stored.
        run("/bin/sh", "-c", "cd \"$1\" && printf x > \"$(printf 'bad\\377name')\" && mkdir \"$(printf 'dir\\377')\""
                + " && printf y > \"$(printf 'dir\\377')/inside\" && printf z > \"sub/$(printf '\\377')\""
                + " && ln -s \"$(printf 'to\\377')\" badlink && ln -s \"$(printf 'to\\357\\277\\275')\" goodlink",
                "sh", root.toString());
        FsIndex index = openIndex();

        ScanResult r = index.scan(root);

        assertThat(r.errors()).hasSize(4).allSatisfy(
                e -> assertThat(e.reason()).isEqualTo(ScanError.Reason.UNDECODABLE_NAME));
        assertThat(r.errors()).extracting(e -> e.path().getParent())
                .containsExactlyInAnyOrder(root, root, root, root.resolve("sub"));
        assertThat(r.errors()).extracting(ScanError::path).contains(root.resolve("badlink"));
        assertThat(storedChildren(root)).containsExactlyInAnyOrder("ok.txt", "sub", "goodlink");
        assertThat(storedChildren(root.resolve("sub"))).containsExactly("ok2.txt");
        assertThat(stored(root.resolve("goodlink")).orElseThrow().linkTarget()).isEqualTo("to\ufffd");

        ScanResult again = index.scan(root);
        assertThat(again.errors()).hasSize(4);
        assertThat(again.added() + again.deleted()).isZero();
    }

    /**
     * Names and link targets holding the characters a bulk loader's text format escapes (tab, newline, carriage
     * return, backslash, a literal {@code \N}) are stored byte for byte, at the top of the scan and in a directory
     * the scan itself inserts (whose children an engine may bulk-load).
     */
    @Test
    void namesAndLinkTargetsWithControlCharactersAndBackslashesAreStoredExactly() throws IOException {
        List<String> names = List.of("tab\there", "new\nline", "carriage\rreturn", "back\\slash", "\\N", "\\t",
                "trailing\\", " spaced ", "ünïcödé ✓", "semi;colon", "quote'\"");
        Path root = tree("fresh/");
        for (Path dir : List.of(root, root.resolve("fresh"))) {
            for (String name : names) {
                Files.writeString(dir.resolve(name), name);
            }
            Files.createSymbolicLink(dir.resolve("link"), Path.of("to\tthe\nodd\\place"));
        }
        FsIndex index = openIndex();

        ScanResult r = index.scan(root);

        assertThat(r.errors()).isEmpty();
        for (Path dir : List.of(root, root.resolve("fresh"))) {
            assertThat(storedChildren(dir)).as(dir.toString()).containsAll(names).contains("link");
            for (String name : names) {
                assertThat(stored(dir.resolve(name)).orElseThrow().size()).as(name)
                        .isEqualTo(name.getBytes(StandardCharsets.UTF_8).length);
            }
            assertThat(stored(dir.resolve("link")).orElseThrow().linkTarget()).isEqualTo("to\tthe\nodd\\place");
        }
        ScanResult again = index.scan(root);
        assertThat(again.added() + again.modified() + again.deleted()).isZero();
    }

    private static Path existingBlockDevice() throws IOException {
        try (Stream<Path> dev = Files.list(Path.of("/dev"))) {
            return dev.filter(p -> {
                try {
                    return ((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000)
                            == 0060000;
                } catch (IOException | RuntimeException e) {
                    return false;
                }
            }).sorted().findFirst().orElseThrow(() -> new AssertionError("not running as root, so no device node"
                    + " can be made, and /dev holds no block device to record instead; run the tests as root"));
        }
    }

    /** Runs a command that must succeed, failing the test with its output otherwise. */
    private static void run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                fail("needed " + String.join(" ", command) + " to set up the test, and it failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
