package io.fsindex.api;

import java.nio.file.Path;

/**
 * What a directory's subtree holds, as the index records it.
 *
 * @param id          the directory's entry id
 * @param path        the directory
 * @param bytes       the total size of the regular files below it (their apparent size, as {@code du -b} counts
 *                    file contents; directories and links add nothing)
 * @param files       how many regular files lie below it
 * @param directories how many directories lie below it (not counting itself)
 */
public record DirectorySize(long id, Path path, long bytes, long files, long directories) {
}
