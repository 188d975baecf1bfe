package io.fsindex.api;

import java.util.List;

/**
 * Regular files with the same size and content hash.
 *
 * @param size        each file's size in bytes
 * @param contentHash their content hash (hex SHA-256)
 * @param files       the files, by id; at least two
 */
public record DuplicateGroup(long size, String contentHash, List<FileEntry> files) {
    /**
     * Copies the list.
     *
     * @param size        each file's size in bytes
     * @param contentHash their content hash (hex SHA-256)
     * @param files       the files, by id; at least two
     */
    public DuplicateGroup {
        files = List.copyOf(files);
    }

    /** {@return the bytes all but one copy take: what removing the duplicates would free} */
    public long wastedBytes() {
        return size * (files.size() - 1L);
    }
}
