package io.fsindex.api;

import java.util.List;

/**
 * Regular files with the same size and the same content hash, or, among files without a content hash, the same
 * fingerprint. Exactly one of {@code contentHash} and {@code fingerprint} is set: a group by content hash holds files
 * whose whole content is the same; a group by fingerprint holds files whose size, first and last 64 KiB are the same
 * (see {@link ContentHashing#FINGERPRINT}), which is a strong hint, not proof, that their content is.
 *
 * @param size        each file's size in bytes
 * @param contentHash their content hash (hex SHA-256), or {@code null} for a group by fingerprint
 * @param fingerprint their fingerprint (hex), or {@code null} for a group by content hash
 * @param files       the files, by id; at least two
 */
public record DuplicateGroup(long size, String contentHash, String fingerprint, List<FileEntry> files) {
    /**
     * Copies the list and checks that exactly one of the two values is set.
     *
     * @param size        each file's size in bytes
     * @param contentHash their content hash (hex SHA-256), or {@code null} for a group by fingerprint
     * @param fingerprint their fingerprint (hex), or {@code null} for a group by content hash
     * @param files       the files, by id; at least two
     */
    public DuplicateGroup {
        if ((contentHash == null) == (fingerprint == null)) {
            throw new FsIndexException("a duplicate group has either a content hash or a fingerprint; got "
                    + contentHash + " and " + fingerprint);
        }
        files = List.copyOf(files);
    }

    /**
     * A group by content hash.
     *
     * @param size        each file's size in bytes
     * @param contentHash their content hash (hex SHA-256)
     * @param files       the files, by id; at least two
     */
    public DuplicateGroup(long size, String contentHash, List<FileEntry> files) {
        this(size, contentHash, null, files);
    }

    /** {@return whether the files' whole content is known to be the same: a group by content hash} */
    public boolean sameContent() {
        return contentHash != null;
    }

    /** {@return the bytes all but one copy take: what removing the duplicates would free} */
    public long wastedBytes() {
        return size * (files.size() - 1L);
    }
}
