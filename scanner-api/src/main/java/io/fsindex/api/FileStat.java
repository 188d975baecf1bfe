package io.fsindex.api;

import java.util.Objects;

/**
 * What a walker read about one filesystem entry, without following symbolic links.
 *
 * @param kind       what the entry is
 * @param size       size in bytes as reported by the filesystem (0 where meaningless)
 * @param mtimeNanos last-modified time in nanoseconds since the epoch, as precise as the filesystem gives it
 * @param linkTarget the target of a symbolic link exactly as stored in the link, otherwise {@code null}
 * @param fileKey    the platform's identity of the object (device and inode on Unix) or {@code null}; used to detect
 *                   symlink loops and never stored
 */
public record FileStat(FileKind kind, long size, long mtimeNanos, String linkTarget, Object fileKey) {
    /**
     * Checks that kind is given.
     *
     * @param kind       what the entry is
     * @param size       size in bytes as reported by the filesystem (0 where meaningless)
     * @param mtimeNanos last-modified time in nanoseconds since the epoch, as precise as the filesystem gives it
     * @param linkTarget the target of a symbolic link exactly as stored in the link, otherwise {@code null}
     * @param fileKey    the platform's identity of the object (device and inode on Unix) or {@code null}; used to
     *                   detect symlink loops and never stored
     */
    public FileStat {
        Objects.requireNonNull(kind, "kind");
    }

    /** {@return true if this entry is a directory the scan can descend into} */
    public boolean isDirectory() {
        return kind == FileKind.DIRECTORY;
    }
}
