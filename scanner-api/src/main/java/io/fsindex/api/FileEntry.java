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
 */
public record FileEntry(long id, long parentId, Path path, FileKind kind, long size, long mtimeNanos,
                        String linkTarget, long scanId, boolean stale) {
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
     */
    public FileEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
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
