package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Moves that keep ids, and what the feed says of them: a directory moved between scans of its old and new places, or
 * moved and changed, a file found by its fingerprint where the platform gives no file identity, and the cases that
 * are no move (a newer scan saw the old place, a new directory handed a deleted one's identity, a hard link, a file
 * replaced under its name). A dialect's test extends this class like {@link FsIndexConformanceTest}.
 */
public abstract class MoveConformanceTest extends ChangeFeedFixture {
    /** A tree whose {@code src/photos} the tests move into {@code dst}. */
    private static final String[] PHOTOS = {"src/photos/", "src/photos/p1.jpg", "src/photos/2024/",
        "src/photos/2024/p2.jpg", "dst/"};

    /**
     * The case users lose most to: a directory moved outside the application, the old place scanned first (the
     * entries are gone there), the new place later. The rows come back with their ids, descendants included.
     */
    @Test
    void aDirectoryMovedBetweenScansOfItsOldAndNewPlacesKeepsItsIdAndItsDescendants() throws Exception {
        Path root = tree(PHOTOS);
        FsIndex index = openIndex();
        Map<String, Long> before = scannedAndMoved(index, root);
        long cursor = index.changeFeedEnd();
        ScanResult oldPlace = index.scan(root.resolve("src"));
        assertThat(oldPlace.deleted()).isEqualTo(4);
        assertThat(index.lookup(root.resolve("src/photos"))).isEmpty();

        ScanResult newPlace = index.scan(root.resolve("dst"));
        assertThat(newPlace.moved()).isEqualTo(1);
        assertThat(newPlace.added()).isEqualTo(3);   // the descendants, back in the index with their ids
        assertThat(ids(index, root, "dst/photos", "dst/photos/p1.jpg", "dst/photos/2024/p2.jpg").values())
                .containsExactlyElementsOf(before.values());
        assertThat(described(drain(index, cursor), root)).containsExactly(
                "MODIFIED src",                          // its mtime: an entry left it
                "DELETED src/photos", "DELETED src/photos/2024", "DELETED src/photos/p1.jpg",
                "DELETED src/photos/2024/p2.jpg",
                "MODIFIED dst",
                "MOVED src/photos -> dst/photos", "ADDED dst/photos/2024", "ADDED dst/photos/p1.jpg",
                "ADDED dst/photos/2024/p2.jpg");
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * A directory moved and changed before the next scan (a file added in it, so its modification time moved on) is
     * known by a file it kept: it keeps its id and carries its subtree along, and the file added is reported added.
     */
    @Test
    void aDirectoryMovedAndChangedSinceKeepsItsIdWhileAFileOfItsIsUnchanged() throws Exception {
        Path root = tree(PHOTOS);
        FsIndex index = openIndex();
        Map<String, Long> before = scannedAndMoved(index, root);
        photoTakenAfterTheMove(root);
        long cursor = index.changeFeedEnd();
        ScanResult r = index.scan(root);

        assertThat(r.moved()).isEqualTo(1);
        assertThat(ids(index, root, "dst/photos", "dst/photos/p1.jpg", "dst/photos/2024/p2.jpg").values())
                .containsExactlyElementsOf(before.values());
        assertThat(described(drain(index, cursor), root)).containsExactlyInAnyOrder(
                "MODIFIED src", "MODIFIED dst", "MOVED src/photos -> dst/photos", "ADDED dst/photos/p3.jpg");
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /** A directory holding only directories is known by one of them, unchanged, as well as by a file. */
    @Test
    void aDirectoryOfDirectoriesMovedAndChangedSinceKeepsItsId() throws Exception {
        Path root = tree("src/albums/", "src/albums/2023/", "src/albums/2023/a.jpg", "dst/");
        FsIndex index = openIndex();
        index.scan(root);
        long albums = index.lookup(root.resolve("src/albums")).orElseThrow().id();
        Files.move(root.resolve("src/albums"), root.resolve("dst/albums"));
        Files.createDirectory(root.resolve("dst/albums/2024"));
        laterModified(root.resolve("dst/albums"));
        ScanResult r = index.scan(root);

        assertThat(r.moved()).isEqualTo(1);
        assertThat(index.lookup(root.resolve("dst/albums")).orElseThrow().id()).isEqualTo(albums);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * The same across scans: the old place scanned first (the entries kept as orphans), then the directory changed
     * in its new place (a file added, one deleted), then the new place scanned. The directory and what is still in
     * it come back with their ids; what left it meanwhile is reported deleted after coming back.
     */
    @Test
    void aDirectoryMovedAndChangedBetweenScansOfItsOldAndNewPlacesKeepsItsId() throws Exception {
        Path root = tree(PHOTOS);
        FsIndex index = openIndex();
        Map<String, Long> before = scannedAndMoved(index, root);
        index.scan(root.resolve("src"));
        Files.delete(root.resolve("dst/photos/2024/p2.jpg"));
        photoTakenAfterTheMove(root);
        long cursor = index.changeFeedEnd();
        ScanResult r = index.scan(root.resolve("dst"));

        assertThat(r.moved()).isEqualTo(1);
        assertThat(ids(index, root, "dst/photos", "dst/photos/p1.jpg").values())
                .containsExactly(before.get("src/photos"), before.get("src/photos/p1.jpg"));
        assertThat(described(drain(index, cursor), root)).contains("MOVED src/photos -> dst/photos",
                "ADDED dst/photos/p1.jpg", "ADDED dst/photos/p3.jpg", "DELETED dst/photos/2024/p2.jpg");
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * A new directory that was handed a deleted one's inode number (filesystems reuse them at once) is a new entry,
     * even holding files under the deleted one's names: they are other files.
     */
    @Test
    void aNewDirectoryHandedADeletedOnesIdentityIsANewEntry() throws Exception {
        Path root = tree("old/", "old/a.txt", "old/b.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long old = index.lookup(root.resolve("old")).orElseThrow().id();
        Object identity = Files.readAttributes(root.resolve("old"), BasicFileAttributes.class).fileKey();
        assertThat(identity).as("the filesystem gives file identities").isNotNull();

        Files.delete(root.resolve("old/a.txt"));
        Files.delete(root.resolve("old/b.txt"));
        Files.delete(root.resolve("old"));
        Files.createDirectory(root.resolve("new"));
        Files.writeString(root.resolve("new/a.txt"), "another a");
        Files.writeString(root.resolve("new/b.txt"), "another b");
        laterModified(root.resolve("new"));
        long cursor = index.changeFeedEnd();
        ScanResult r = index.scan(root,
                ScanOptions.defaults().withWalker(new HandedIdentity(root.resolve("new"), identity)));

        assertThat(r.moved()).isZero();
        assertThat(index.lookup(root.resolve("new")).orElseThrow().id()).isNotEqualTo(old);
        assertThat(described(drain(index, cursor), root)).contains("DELETED old", "ADDED new");
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /** Writes a new file into the moved {@code dst/photos}, whose modification time then moves on. */
    private static void photoTakenAfterTheMove(Path root) throws java.io.IOException {
        Files.writeString(root.resolve("dst/photos/p3.jpg"), "taken after the move");
        laterModified(root.resolve("dst/photos"));
    }

    /** Sets {@code path}'s modification time an hour on, so that it differs whatever the clock's resolution. */
    private static void laterModified(Path path) throws java.io.IOException {
        Files.setLastModifiedTime(path, FileTime.from(
                Files.getLastModifiedTime(path).toInstant().plus(java.time.Duration.ofHours(1))));
    }

    /** The real filesystem, except that one path shows the file identity another entry had. */
    private static final class HandedIdentity extends ForwardingWalker {
        private final Path path;
        private final Object identity;

        HandedIdentity(Path path, Object identity) {
            this.path = path;
            this.identity = identity;
        }

        @Override
        public io.fsindex.api.FileStat stat(Path p) throws java.io.IOException {
            return p.equals(path) ? handed(super.stat(p)) : super.stat(p);
        }

        @Override
        public io.fsindex.api.DirectoryListing list(Path directory) throws java.io.IOException {
            io.fsindex.api.DirectoryListing l = super.list(directory);
            return new io.fsindex.api.DirectoryListing(l.entries().stream()
                    .map(e -> directory.resolve(e.name()).equals(path)
                            ? new io.fsindex.api.WalkedEntry(e.name(), handed(e.stat())) : e).toList(), l.problems());
        }

        private io.fsindex.api.FileStat handed(io.fsindex.api.FileStat s) {
            return new io.fsindex.api.FileStat(s.kind(), s.size(), s.mtimeNanos(), s.linkTarget(), identity);
        }
    }

    /** Scans {@code root}, then moves {@code src/photos} into {@code dst}; returns the ids its entries had. */
    private static Map<String, Long> scannedAndMoved(FsIndex index, Path root) throws java.io.IOException {
        index.scan(root);
        Map<String, Long> before = ids(index, root, "src/photos", "src/photos/p1.jpg", "src/photos/2024/p2.jpg");
        Files.move(root.resolve("src/photos"), root.resolve("dst/photos"));
        return before;
    }

    private static Map<String, Long> ids(FsIndex index, Path root, String... paths) {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (String p : paths) {
            out.put(p, index.lookup(root.resolve(p)).orElseThrow().id());
        }
        return out;
    }

    /**
     * An older scan never steals the row of a file a newer scan saw at its old place: the newer scan listed the old
     * directory while the file was there, so the older one, finding the file at its new place afterwards, records it
     * as a new entry and leaves the old row to the newer scan's view (the next scan of the old place removes it).
     */
    @Test
    void anOlderScanDoesNotMoveARowANewerScanSawAtItsOldPlace() throws Exception {
        Path root = tree("old/", "old/f.txt", "new/");
        FsIndex index = openIndex();
        index.scan(root);
        long f = index.lookup(root.resolve("old/f.txt")).orElseThrow().id();
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause beforeRoot = walker.pauseBeforeListing(root);
        ScanSession older = index.startScan(root, ScanOptions.defaults().withWalker(walker));
        beforeRoot.awaitPaused();

        index.scan(root.resolve("old"));            // newer: sees f.txt in old/
        Files.move(root.resolve("old/f.txt"), root.resolve("new/f.txt"));
        beforeRoot.release();
        ScanResult r = older.await();

        assertThat(r.moved()).isZero();
        assertThat(index.lookup(root.resolve("old/f.txt")).orElseThrow().id()).isEqualTo(f);
        assertThat(index.lookup(root.resolve("new/f.txt")).orElseThrow().id()).isNotEqualTo(f);
        index.scan(root);                           // a scan newer than both sees the truth
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /**
     * Where the platform gives no file identity, a scan that computes fingerprints recognises a moved file by its
     * size and fingerprint, if exactly one gone file has them; with two candidates it cannot tell, so moves none.
     */
    @Test
    void withoutFileIdentitiesAMovedFileIsFoundByItsFingerprintIfNoOtherGoneFileHasIt() throws Exception {
        Path root = tree("a/", "b/", "c/");
        Files.writeString(root.resolve("a/unique.txt"), "only this file has this content");
        Files.writeString(root.resolve("a/twin1.txt"), "the same content");
        Files.writeString(root.resolve("a/twin2.txt"), "the same content");
        FsIndex index = openIndex();
        ScanOptions noKeys = ScanOptions.defaults().withWalker(new WithoutFileKeys())
                .withContentHashing(io.fsindex.api.ContentHashing.FINGERPRINT);
        index.scan(root, noKeys);
        Map<String, Long> before = ids(index, root, "a/unique.txt", "a/twin1.txt", "a/twin2.txt");

        Files.move(root.resolve("a/unique.txt"), root.resolve("b/unique.txt"));
        Files.move(root.resolve("a/twin1.txt"), root.resolve("b/twin1.txt"));
        Files.move(root.resolve("a/twin2.txt"), root.resolve("c/twin2.txt"));
        index.scan(root.resolve("a"), noKeys);      // all three gone from a/, kept as orphans
        ScanResult r = index.scan(root, noKeys);

        assertThat(r.moved()).isEqualTo(1);
        assertThat(index.lookup(root.resolve("b/unique.txt")).orElseThrow().id())
                .isEqualTo(before.get("a/unique.txt"));
        assertThat(index.lookup(root.resolve("b/twin1.txt")).orElseThrow().id()).isNotIn(before.values());
        assertThat(index.lookup(root.resolve("c/twin2.txt")).orElseThrow().id()).isNotIn(before.values());
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    /** The real filesystem, as a platform without file identities (such as {@code fileKey()} on Windows) shows it. */
    private static final class WithoutFileKeys extends ForwardingWalker {
        @Override
        public io.fsindex.api.FileStat stat(Path path) throws java.io.IOException {
            return withoutKey(super.stat(path));
        }

        @Override
        public io.fsindex.api.DirectoryListing list(Path directory) throws java.io.IOException {
            io.fsindex.api.DirectoryListing l = super.list(directory);
            return new io.fsindex.api.DirectoryListing(l.entries().stream()
                    .map(e -> new io.fsindex.api.WalkedEntry(e.name(), withoutKey(e.stat()))).toList(), l.problems());
        }

        private static io.fsindex.api.FileStat withoutKey(io.fsindex.api.FileStat s) {
            return s == null ? null
                    : new io.fsindex.api.FileStat(s.kind(), s.size(), s.mtimeNanos(), s.linkTarget(), null);
        }
    }

    /** Only an entry that disappeared from its old place moves: a second name of the same file is a new entry. */
    @Test
    void aHardLinkIsANewEntryAndAFileReplacedUnderItsNameKeepsThatNamesRow() throws Exception {
        Path root = tree("f.txt", "g.txt");
        FsIndex index = openIndex();
        index.scan(root);
        long f = index.lookup(root.resolve("f.txt")).orElseThrow().id();
        long g = index.lookup(root.resolve("g.txt")).orElseThrow().id();

        Files.createLink(root.resolve("link.txt"), root.resolve("f.txt"));
        Files.move(root.resolve("g.txt"), root.resolve("h.txt"));
        Files.writeString(root.resolve("g.txt"), "another file under the old name");
        ScanResult r = index.scan(root);

        assertThat(r.moved()).isZero();
        assertThat(index.lookup(root.resolve("f.txt")).orElseThrow().id()).isEqualTo(f);
        assertThat(index.lookup(root.resolve("link.txt")).orElseThrow().id()).isNotIn(f, g);
        assertThat(index.lookup(root.resolve("g.txt")).orElseThrow().id()).isEqualTo(g);
        assertThat(index.lookup(root.resolve("h.txt")).orElseThrow().id()).isNotIn(f, g);
    }
}
