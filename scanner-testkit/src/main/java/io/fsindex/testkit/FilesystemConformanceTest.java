package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.io.Writer;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * How scans treat a real filesystem, on a real database: symbolic links (recorded, optionally followed, loops
 * caught), special files (recorded, never opened), permissions, undecodable names, and a tree that changes while it is
 * walked. A dialect's test extends this class and says in {@link #database()} which database to use, exactly as for
 * {@link FsIndexConformanceTest}.
 *
 * <p>Root ignores permission bits, so when the tests run as root the permission tests scan in a child JVM started
 * through {@code setpriv} without {@code CAP_DAC_OVERRIDE} and {@code CAP_DAC_READ_SEARCH} (see
 * {@link ScanInChildProcess}); otherwise they scan in this JVM. A test that cannot get the environment it needs fails
 * and says why; none is skipped.
 *
 * <p>Some assertions read the {@code <prefix>files} table directly, walking names literally: the index's own
 * {@code lookup} resolves a path's parent to its real path, which would answer for a link's target instead of the
 * rows recorded under the link.
 */
public abstract class FilesystemConformanceTest extends IndexTest {
    /** Guards the tests where a wrong implementation would block forever (opening a FIFO, following a loop). */
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final FileTime LINK_MTIME = FileTime.fromMillis(1_300_000_000_123L);

    // ---------------------------------------------------------------------------------------------- symbolic links

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

    // ---------------------------------------------------------------------------------------------- special files

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

    // ---------------------------------------------------------------------------------------------- permissions

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

    // ---------------------------------------------------------------------------------------------- names

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

    // ---------------------------------------------------------------------------------------------- a changing tree

    @Test
    void aDirectoryReplacedByAFileAfterItsParentWasListedIsRecordedAsTheFile() throws IOException {
        Path root = tree("x/", "x/a.txt", "x/sub/", "x/sub/b.txt", "y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path x = root.resolve("x");
        ChangeOnListing walker = ChangeOnListing.after(root, () -> {
            Trees.delete(x);
            Files.writeString(x, "now a file");
        });

        ScanResult r = index.scan(root, ScanOptions.defaults().withWalker(walker));

        assertThat(walker.changed()).isTrue();
        assertThat(r.errors()).isEmpty();
        StoredRow row = stored(x).orElseThrow();
        assertThat(row.kind()).isEqualTo(FileKind.FILE);
        assertThat(row.size()).isEqualTo(10);
        assertThat(storedChildren(x)).isEmpty();
        assertThat(r.deleted()).isEqualTo(3);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void aDirectoryDeletedAfterItsParentWasListedIsRemoved() throws IOException {
        Path root = tree("x/", "x/a.txt", "x/sub/", "x/sub/b.txt", "y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        ChangeOnListing walker = ChangeOnListing.after(root, () -> Trees.delete(root.resolve("x")));

        ScanResult r = index.scan(root, ScanOptions.defaults().withWalker(walker));

        assertThat(walker.changed()).isTrue();
        assertThat(r.errors()).isEmpty();
        assertThat(stored(root.resolve("x"))).isEmpty();
        assertThat(r.deleted()).isEqualTo(4);
        assertThat(row("y.txt", root)).isPresent();
    }

    @Test
    void aFileReplacedByADirectoryAfterItsParentWasListedIsRecordedAsListedThenAsADirectory() throws IOException {
        Path root = tree("x", "y.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path x = root.resolve("x");
        ChangeOnListing walker = ChangeOnListing.after(root, () -> {
            Files.delete(x);
            Trees.create(root, "x/", "x/inner.txt");
        });

        ScanResult r = index.scan(root, ScanOptions.defaults().withWalker(walker));

        // The listing saw a file; that is a state the disk really had, and nothing fails.
        assertThat(walker.changed()).isTrue();
        assertThat(r.errors()).isEmpty();
        assertThat(stored(x).orElseThrow().kind()).isEqualTo(FileKind.FILE);

        ScanResult next = index.scan(root);
        assertThat(next.errors()).isEmpty();
        assertThat(stored(x).orElseThrow().kind()).isEqualTo(FileKind.DIRECTORY);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void aDirectoryReplacedByAFileBetweenScansLeavesNoRowsBelowTheFile() throws IOException {
        Path root = tree("x/", "x/a.txt", "x/sub/", "x/sub/b.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path x = root.resolve("x");
        Trees.delete(x);
        Files.writeString(x, "file");

        ScanResult r = index.scan(root);

        assertThat(stored(x).orElseThrow().kind()).isEqualTo(FileKind.FILE);
        assertThat(storedChildren(x)).isEmpty();
        assertThat(r.deleted()).isEqualTo(3);

        Files.delete(x);
        Trees.create(root, "x/", "x/again.txt");
        index.scan(root);
        assertThat(storedChildren(x)).containsExactly("again.txt");
    }

    @Test
    void aScanRootThatBecameAFileLeavesNoRowsBelowIt() throws IOException {
        Path root = tree("x/", "x/a.txt", "x/sub/", "x/sub/b.txt");
        Path x = root.resolve("x");
        FsIndex index = openIndex();
        index.scan(x);
        Trees.delete(x);
        Files.writeString(x, "file");

        ScanResult r = index.scan(x);

        assertThat(stored(x).orElseThrow().kind()).isEqualTo(FileKind.FILE);
        assertThat(storedChildren(x)).isEmpty();
        assertThat(r.deleted()).isEqualTo(3);
    }

    @Test
    void aDirectoryReplacedByALinkAfterItsParentWasListedIsNotFollowed() throws IOException {
        Path root = tree("x/", "x/a.txt", "elsewhere/", "elsewhere/secret.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path x = root.resolve("x");
        ChangeOnListing walker = ChangeOnListing.after(root, () -> {
            Trees.delete(x);
            Files.createSymbolicLink(x, Path.of("elsewhere"));
        });

        ScanResult r = index.scan(root, ScanOptions.defaults().withWalker(walker));

        assertThat(walker.changed()).isTrue();
        assertThat(r.errors()).isEmpty();
        StoredRow row = stored(x).orElseThrow();
        assertThat(row.kind()).isEqualTo(FileKind.SYMLINK);
        assertThat(row.linkTarget()).isEqualTo("elsewhere");
        assertThat(storedChildren(x)).as("nothing recorded through the link").isEmpty();
    }

    @Test
    void aRootDeletedJustBeforeItIsListedFailsTheScanAndDeletesNothing() {
        Path root = tree("a/", "a/f.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path a = root.resolve("a");
        ChangeOnListing walker = ChangeOnListing.before(a, () -> Trees.delete(a));

        assertThatThrownBy(() -> index.scan(a, ScanOptions.defaults().withWalker(walker)))
                .isInstanceOf(ScanFailedException.class)
                .hasMessageContaining("nothing was deleted");
        assertThat(walker.changed()).isTrue();
        assertThat(row("a/f.txt", root)).isPresent();
    }

    @Test
    void aFileDeletedBetweenReaddirAndLstatIsJustMissing() throws IOException {
        Path root = tree("d/", "d/vanishing.txt", "d/stays.txt");
        FsIndex index = openIndex();
        index.scan(root);
        Path victim = root.resolve("d/vanishing.txt");
        DeleteBeforeLstat walker = new DeleteBeforeLstat(victim);

        ScanResult r = index.scan(root, ScanOptions.defaults().withWalker(walker));

        assertThat(walker.deleted.get()).as("the walker read the listed name's attributes through stat").isTrue();
        assertThat(r.errors()).isEmpty();
        assertThat(r.deleted()).isEqualTo(1);
        assertThat(stored(victim)).isEmpty();
        assertThat(row("d/stays.txt", root)).isPresent();
    }

    // ---------------------------------------------------------------------------------------------- helpers

    /**
     * Delegates to {@link NioWalker} and changes the disk once at an exact point: just before, or just after, one
     * directory is listed. "After" means the scan holds that listing but has listed none of its subdirectories.
     */
    static final class ChangeOnListing extends ForwardingWalker {
        private final Path directory;
        private final boolean before;
        private final DiskChange change;
        private final AtomicBoolean changed = new AtomicBoolean();

        interface DiskChange {
            void run() throws IOException;
        }

        private ChangeOnListing(Path directory, boolean before, DiskChange change) {
            this.directory = directory;
            this.before = before;
            this.change = change;
        }

        static ChangeOnListing before(Path directory, DiskChange change) {
            return new ChangeOnListing(directory, true, change);
        }

        static ChangeOnListing after(Path directory, DiskChange change) {
            return new ChangeOnListing(directory, false, change);
        }

        boolean changed() {
            return changed.get();
        }

        @Override
        public DirectoryListing list(Path dir) throws IOException {
            boolean mine = dir.equals(directory) && !changed.get();
            if (mine && before) {
                changeOnce();
            }
            DirectoryListing listing = super.list(dir);
            if (mine && !before) {
                changeOnce();
            }
            return listing;
        }

        private void changeOnce() throws IOException {
            if (changed.compareAndSet(false, true)) {
                change.run();
            }
        }
    }

    /** A {@link NioWalker} that deletes one file just after its directory was read and before its lstat. */
    static final class DeleteBeforeLstat extends NioWalker {
        private final Path victim;
        final AtomicBoolean deleted = new AtomicBoolean();

        DeleteBeforeLstat(Path victim) {
            this.victim = victim;
        }

        @Override
        public FileStat stat(Path path) throws IOException {
            if (path.equals(victim) && deleted.compareAndSet(false, true)) {
                Files.delete(path);
            }
            return super.stat(path);
        }
    }

    /** One row of the files table. */
    record StoredRow(long id, FileKind kind, long size, long mtimeNanos, String linkTarget) {
    }

    private Optional<StoredRow> row(String relative, Path root) {
        return stored(root.resolve(relative));
    }

    /** The row recorded at {@code path}, found name by name from the filesystem root, following no link. */
    private Optional<StoredRow> stored(Path path) {
        return withConnection(c -> {
            Long parent = null;
            StoredRow row = null;
            List<String> names = new ArrayList<>();
            names.add(path.getRoot().toString());
            path.forEach(name -> names.add(name.toString()));
            for (String name : names) {
                String sql = "SELECT id, kind, size, mtime, link_target FROM " + prefix() + "files WHERE name = ?"
                        + " AND gone_at IS NULL AND "
                        + (parent == null ? "parent IS NULL" : "parent = ?");
                try (PreparedStatement s = c.prepareStatement(sql)) {
                    s.setString(1, name);
                    if (parent != null) {
                        s.setLong(2, parent);
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.empty();
                        }
                        row = new StoredRow(rs.getLong(1), FileKind.valueOf(rs.getString(2)), rs.getLong(3),
                                rs.getLong(4), rs.getString(5));
                        parent = row.id();
                    }
                }
            }
            return Optional.ofNullable(row);
        });
    }

    /** The names of the rows recorded below the row at {@code path} (see {@link #stored}). */
    private List<String> storedChildren(Path path) {
        Optional<StoredRow> dir = stored(path);
        if (dir.isEmpty()) {
            return List.of();
        }
        return withConnection(c -> {
            List<String> names = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name FROM " + prefix() + "files WHERE parent = ?")) {
                s.setLong(1, dir.get().id());
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
            }
            return names;
        });
    }

    private interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T withConnection(SqlWork<T> work) {
        TestDatabase db = database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            return work.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the index's rows: " + e.getMessage(), e);
        }
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
        Path propertiesFile = Files.createTempFile(tmp, "index", ".properties");
        try (Writer w = Files.newBufferedWriter(propertiesFile)) {
            properties.store(w, null);
        }
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
            scan = runChildWithoutDacCapabilities(args);
        }
        if (scan.exitCode() == ScanInChildProcess.ENVIRONMENT || scan.exitCode() != 0
                && scan.exitCode() != ScanInChildProcess.FAILED) {
            fail("cannot run the scan without permission overrides, so the test proves nothing: " + scan);
        }
        return scan;
    }

    private static ChildScan runChildWithoutDacCapabilities(List<String> args) throws IOException {
        Path setpriv = Stream.of("/usr/bin/setpriv", "/bin/setpriv", "/usr/sbin/setpriv").map(Path::of)
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError("tests run as root, which ignores permission bits, and"
                        + " setpriv (util-linux) is not installed to drop CAP_DAC_OVERRIDE for the scan: install"
                        + " util-linux or run the tests as an ordinary user"));
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(setpriv.toString(), "--inh-caps=-all", "--ambient-caps=-all",
                "--bounding-set=-dac_override,-dac_read_search",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath, ScanInChildProcess.class.getName()));
        command.addAll(args);
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

    static boolean runningAsRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
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
