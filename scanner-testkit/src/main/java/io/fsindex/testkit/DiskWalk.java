package io.fsindex.testkit;

import io.fsindex.api.FileKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a walk of the disk says about a tree, written apart from the library: the answers the query suites hold the
 * index's against. Links are never followed.
 */
final class DiskWalk {
    private DiskWalk() {
    }

    /** {@code root} and everything below it. */
    static List<Path> walk(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes of regular files, regular files, directories below {@code dir}, counted by a walk. */
    static long[] walkSize(Path dir) {
        long[] out = new long[3];
        for (Path p : walk(dir)) {
            if (p.equals(dir)) {
                continue;
            }
            if (isFile(p)) {
                out[0] += size(p);
                out[1]++;
            } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                out[2]++;
            }
        }
        return out;
    }

    static boolean isFile(Path p) {
        return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
    }

    static long size(Path p) {
        return attributes(p).size();
    }

    static Instant mtime(Path p) {
        return attributes(p).lastModifiedTime().toInstant();
    }

    static FileKind kind(Path p) {
        BasicFileAttributes a = attributes(p);
        return a.isDirectory() ? FileKind.DIRECTORY : a.isSymbolicLink() ? FileKind.SYMLINK
                : a.isRegularFile() ? FileKind.FILE : FileKind.FIFO;
    }

    static String name(Path p) {
        return p.getFileName().toString();
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
