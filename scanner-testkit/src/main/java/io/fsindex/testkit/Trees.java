package io.fsindex.testkit;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Builds small trees on disk and compares the index with what is on disk. */
public final class Trees {
    private Trees() {
    }

    /** Creates each path under {@code root}: a trailing {@code /} makes a directory, otherwise a file with content. */
    public static void create(Path root, String... paths) {
        try {
            for (String p : paths) {
                Path target = root.resolve(p);
                if (p.endsWith("/")) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.writeString(target, p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates {@code dir} with its parents if need be and returns its real path, the form scans store. */
    public static Path realDirectory(Path dir) {
        try {
            return Files.createDirectories(dir).toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a file or a whole directory tree. */
    public static void delete(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(path)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every entry under {@code root} (excluded) on disk, as relative path → kind and size. */
    public static Map<String, String> onDisk(Path root) {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> !p.equals(root)).forEach(p -> {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    FileKind kind = a.isDirectory() ? FileKind.DIRECTORY : a.isSymbolicLink() ? FileKind.SYMLINK
                            : a.isRegularFile() ? FileKind.FILE : FileKind.OTHER;
                    out.put(root.relativize(p).toString(), kind + (kind == FileKind.FILE ? ":" + a.size() : ""));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Every entry the index records under {@code root} (excluded), in the same form as {@link #onDisk}. */
    public static Map<String, String> inIndex(FsIndex index, Path root) {
        Map<String, String> out = new TreeMap<>();
        collect(index, root, root, out);
        return out;
    }

    private static void collect(FsIndex index, Path root, Path dir, Map<String, String> out) {
        for (FileEntry e : index.children(dir)) {
            out.put(root.relativize(e.path()).toString(),
                    e.kind() + (e.kind() == FileKind.FILE ? ":" + e.size() : ""));
            if (e.kind() == FileKind.DIRECTORY) {
                collect(index, root, e.path(), out);
            }
        }
    }
}
