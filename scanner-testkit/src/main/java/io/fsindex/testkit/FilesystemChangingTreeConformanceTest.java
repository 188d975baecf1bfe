package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * How scans treat a real tree that changes while it is walked, at an exact point of the walk: directories replaced by
 * files or links or deleted after their parent was listed, files replaced by directories, a root deleted just before it
 * is listed, a file deleted between reading its directory and its attributes. A dialect's test extends this class and
 * says in {@link #database()} which database to use, exactly as for {@link FsIndexConformanceTest}.
 */
public abstract class FilesystemChangingTreeConformanceTest extends FilesystemFixture {

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
}
