package io.fsindex.api;

/**
 * How much of each regular file's content a scan reads to identify it; chosen per scan with
 * {@link ScanOptions#withContentHashing}. Values are stored as 64 lower-case hex digits in the file row. A value is
 * computed once and kept until a later scan finds the file's size or mtime changed (then it is cleared and computed
 * again by the next scan that asks for it), so a rescan of unchanged files reads nothing. Files are read after their
 * directory's listing is committed, outside any write transaction; a file whose size or mtime changes while it is
 * read is not stored (a later scan hashes it again). A file that cannot be read is reported as a {@link ScanError}
 * and keeps no value; the scan still completes.
 */
public enum ContentHashing {
    /** Reads no content (the default). */
    OFF,
    /**
     * A cheap fingerprint ({@code files.fingerprint}): the SHA-256 of the file's size as an 8-byte big-endian number,
     * followed by its first 64 KiB and its last 64 KiB (for a file under 64 KiB, its whole content twice; ranges may
     * overlap). At most 128 KiB is read per file, however large.
     */
    FINGERPRINT,
    /**
     * The fingerprint and the SHA-256 of the whole content, streamed through a fixed buffer (the file is never held
     * in memory). The hash is stored in {@code contents} (one row per distinct content) and referenced from
     * {@code files.content_hash}.
     */
    FULL
}
