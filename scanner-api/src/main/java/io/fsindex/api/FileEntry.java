package io.fsindex.api;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One row of the index: a file, directory, link or special file as last seen by a scan.
 *
 * @param id         the row's id; never reused, so an id always means the same row
 * @param parentId   the parent directory's id, or 0 for a filesystem root
 * @param path       the entry's absolute path
 * @param kind       what it is
 * @param size       size in bytes
 * @param mtimeNanos last-modified time in nanoseconds since the epoch
 * @param linkTarget a symbolic link's target, else {@code null}
 * @param scanId     the scan that last wrote this row
 * @param stale      true while a running scan has not yet confirmed the entry still exists
 * @param fileKey    a 64-bit hash of the filesystem's identity of the entry (device and inode), or {@code null} where
 *                   the filesystem has none
 * @param fingerprint a regular file's cheap content fingerprint (hex), or {@code null} if not computed
 * @param contentHash a regular file's hex SHA-256 of the whole content, or {@code null} if not computed
 */
public record FileEntry(long id, long parentId, Path path, FileKind kind, long size, long mtimeNanos,
                        String linkTarget, long scanId, boolean stale, Long fileKey, String fingerprint,
                        String contentHash) {
    /**
     * Checks that path and kind are given.
     *
     * @param id         the row's id; never reused, so an id always means the same row
     * @param parentId   the parent directory's id, or 0 for a filesystem root
     * @param path       the entry's absolute path
     * @param kind       what it is
     * @param size       size in bytes
     * @param mtimeNanos last-modified time in nanoseconds since the epoch
     * @param linkTarget a symbolic link's target, else {@code null}
     * @param scanId     the scan that last wrote this row
     * @param stale      true while a running scan has not yet confirmed the entry still exists
     * @param fileKey    a 64-bit hash of the filesystem's identity of the entry, or {@code null}
     * @param fingerprint a regular file's cheap content fingerprint (hex), or {@code null} if not computed
     * @param contentHash a regular file's hex SHA-256 of the whole content, or {@code null} if not computed
     */
    public FileEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * An entry without file key or content values, as entries were before they carried them.
     *
     * @param id         the row's id
     * @param parentId   the parent directory's id, or 0 for a filesystem root
     * @param path       the entry's absolute path
     * @param kind       what it is
     * @param size       size in bytes
     * @param mtimeNanos last-modified time in nanoseconds since the epoch
     * @param linkTarget a symbolic link's target, else {@code null}
     * @param scanId     the scan that last wrote this row
     * @param stale      true while a running scan has not yet confirmed the entry still exists
     */
    public FileEntry(long id, long parentId, Path path, FileKind kind, long size, long mtimeNanos, String linkTarget,
                     long scanId, boolean stale) {
        this(id, parentId, path, kind, size, mtimeNanos, linkTarget, scanId, stale, null, null, null);
    }

    /** {@return the entry's name (for a filesystem root, the root itself, e.g. {@code /})} */
    public String name() {
        Path fileName = path.getFileName();
        return fileName == null ? path.toString() : fileName.toString();
    }

    /** {@return the parent's id, empty for a filesystem root} */
    public OptionalLong parent() {
        return parentId == 0 ? OptionalLong.empty() : OptionalLong.of(parentId);
    }

    /** {@return the last-modified time as an instant} */
    public Instant mtime() {
        return Instant.ofEpochSecond(Math.floorDiv(mtimeNanos, 1_000_000_000L), Math.floorMod(mtimeNanos, 1_000_000_000L));
    }
}
