package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.MountChangedException;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanScope;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Mount points on a real database: {@code oneFileSystem} and pruned filesystem types record a mount point but do not
 * list it, and a directory whose disk is gone (it sits on another device than recorded) keeps its rows until the
 * caller accepts the change. The mount is a real {@code tmpfs} mounted inside the test's tree where the test may mount
 * (as root, with {@code CAP_SYS_ADMIN}); otherwise a walker that reports another device for the directory stands in,
 * and the test says so on standard error.
 */
public abstract class ScopeMountConformanceTest extends IndexTest {
    private Mount mount;

    @AfterEach
    void unmount() {
        if (mount != null) {
            mount.unmount();
        }
    }

    @Test
    void oneFileSystemDoesNotDescendIntoAMount() {
        FsIndex index = openIndex();
        Path root = tree("a.txt", "disk/");
        mount = Mount.at(root.resolve("disk"));
        Trees.create(root, "disk/in.txt", "disk/sub/deep.txt");
        index.scan(root, mount.options().withScope(ScanScope.defaults().withOneFileSystem(true)));
        assertThat(Trees.inIndex(index, root).keySet()).as(mount.how()).containsExactlyInAnyOrder("a.txt", "disk");

        index.setScope(root, ScanScope.defaults());
        index.scan(root, mount.options());
        assertThat(Trees.inIndex(index, root).keySet()).as(mount.how())
                .containsExactlyInAnyOrder("a.txt", "disk", "disk/in.txt", "disk/sub", "disk/sub/deep.txt");

        index.setScope(root, ScanScope.defaults().withPrunedFsTypes(Set.of(mount.fsType())));
        index.scan(root, mount.options());
        assertThat(Trees.inIndex(index, root).keySet()).as(mount.how()).containsExactlyInAnyOrder("a.txt", "disk");
    }

    @Test
    void aDiskGoneFromItsMountPointDeletesNothingUntilAccepted() {
        FsIndex index = openIndex();
        Path root = tree("a.txt", "disk/");
        mount = Mount.at(root.resolve("disk"));
        Trees.create(root, "disk/photos/1.jpg", "disk/photos/2.jpg");
        index.scan(root, mount.options());
        assertThat(Trees.inIndex(index, root)).as(mount.how()).containsKey("disk/photos/2.jpg");

        mount.unmount();
        ScanResult r = index.scan(root, mount.options());
        assertThat(r.deleted()).as(mount.how()).isZero();
        assertThat(r.errors()).extracting(ScanError::path).containsExactly(root.resolve("disk"));
        assertThat(r.errors().get(0).message()).contains("when last scanned and is now on");
        assertThat(Trees.inIndex(index, root).keySet()).as(mount.how())
                .containsExactlyInAnyOrder("a.txt", "disk", "disk/photos", "disk/photos/1.jpg", "disk/photos/2.jpg");
        index.scan(root, mount.options());                         // again: still nothing deleted
        assertThat(Trees.inIndex(index, root)).containsKey("disk/photos/1.jpg");

        ScanResult accepted = index.scan(root, mount.options().withAcceptMountChanges(true));
        assertThat(accepted.deleted()).isEqualTo(3);
        assertThat(Trees.inIndex(index, root).keySet()).containsExactlyInAnyOrder("a.txt", "disk");
        assertThat(index.scan(root, mount.options()).errors()).as("the change, once accepted, is recorded").isEmpty();
    }

    @Test
    void aScanOfAMountPointWhoseDiskIsGoneIsRefused() {
        FsIndex index = openIndex();
        Path root = tree("disk/");
        mount = Mount.at(root.resolve("disk"));
        Trees.create(root, "disk/1.jpg");
        Path disk = root.resolve("disk");
        index.scan(disk, mount.options());
        mount.unmount();
        assertThatThrownBy(() -> index.scan(disk, mount.options()))
                .as(mount.how())
                .isInstanceOf(MountChangedException.class)
                .hasMessageContaining(disk + ", the scan's root, was on");
        assertThat(index.lookup(disk.resolve("1.jpg"))).isPresent();
        index.scan(disk, mount.options().withAcceptMountChanges(true));
        assertThat(index.lookup(disk.resolve("1.jpg"))).isEmpty();
    }

    /** A directory on another device than its parent: a real tmpfs where permitted, else a walker's pretence. */
    static final class Mount {
        final Path dir;
        final DeviceFakingWalker walker;         // null for a real mount
        boolean mounted = true;

        private Mount(Path dir, DeviceFakingWalker walker) {
            this.dir = dir;
            this.walker = walker;
        }

        static Mount at(Path dir) {
            String refused;
            try {
                Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=4m", "fsindex-test", dir.toString())
                        .redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return new Mount(dir, null);
                }
                refused = "mount exited with " + p.exitValue() + ": " + out;
            } catch (IOException e) {
                refused = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            System.err.println("ScopeMountConformanceTest: cannot mount a tmpfs here (" + refused + "); FALLING BACK"
                    + " to a walker that reports another device for " + dir);
            return new Mount(dir, new DeviceFakingWalker(dir));
        }

        ScanOptions options() {
            return walker == null ? ScanOptions.defaults() : ScanOptions.defaults().withWalker(walker);
        }

        String how() {
            return walker == null ? "a real tmpfs mount" : "a walker reporting another device (no mount permitted)";
        }

        String fsType() {
            try {
                return Files.getFileStore(dir).type();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Unmounts: the bare (empty) mount point shows through, on its parent's device. */
        void unmount() {
            if (!mounted) {
                return;
            }
            mounted = false;
            if (walker != null) {
                walker.mounted.set(false);
                try (var s = Files.list(dir)) {
                    s.forEach(Trees::delete);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return;
            }
            try {
                Process p = new ProcessBuilder("umount", dir.toString()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    throw new IllegalStateException("umount " + dir + " failed: " + out);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Reports every entry at or below one directory on a made-up device while {@link #mounted} is set. */
    static final class DeviceFakingWalker extends ForwardingWalker {
        final Path mountPoint;
        final AtomicBoolean mounted = new AtomicBoolean(true);

        DeviceFakingWalker(Path mountPoint) {
            this.mountPoint = mountPoint;
        }

        @Override
        public FileStat stat(Path path) throws IOException {
            return fake(path, super.stat(path));
        }

        @Override
        public DirectoryListing list(Path directory) throws IOException {
            DirectoryListing real = super.list(directory);
            List<WalkedEntry> entries = new ArrayList<>();
            for (WalkedEntry e : real.entries()) {
                entries.add(new WalkedEntry(e.name(), fake(directory.resolve(e.name()), e.stat())));
            }
            return new DirectoryListing(entries, real.problems());
        }

        private FileStat fake(Path path, FileStat stat) {
            if (stat == null || !mounted.get() || !path.startsWith(mountPoint) || stat.fileKey() == null) {
                return stat;
            }
            String key = stat.fileKey().toString();
            String ino = key.substring(key.indexOf(",ino="));
            return new FileStat(stat.kind(), stat.size(), stat.mtimeNanos(), stat.linkTarget(), "(dev=fa1e" + ino);
        }
    }
}
