package io.fsindex.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads the filesystem for a scan, one directory at a time.
 *
 * <p>The default implementation uses NIO. Supply your own to read another kind of tree, or, in tests, to pause a scan
 * at an exact point (wrap the default one and block inside {@link #list}). Implementations must be safe to call from
 * several scans at once.
 */
public interface Walker {

    /**
     * Reads one entry's attributes without following a symbolic link at {@code path}.
     *
     * @throws java.nio.file.NoSuchFileException   if nothing exists at {@code path}
     * @throws java.nio.file.AccessDeniedException if permission is denied
     */
    FileStat stat(Path path) throws IOException;

    /**
     * Reads the attributes of what {@code path} finally points to, following every symbolic link; used only when a
     * scan follows links.
     *
     * @throws java.nio.file.NoSuchFileException if the link is broken
     */
    FileStat statFollowingLinks(Path path) throws IOException;

    /**
     * Lists one directory completely, with each entry's attributes.
     *
     * @throws java.nio.file.NoSuchFileException    if the directory no longer exists
     * @throws java.nio.file.NotDirectoryException  if it is no longer a directory
     * @throws java.nio.file.AccessDeniedException  if it cannot be read
     */
    DirectoryListing list(Path directory) throws IOException;
}
