package io.fsindex.api;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the filesystem for a scan, one directory at a time.
 *
 * <p>The default implementation uses NIO. Supply your own to read another kind of tree, or, in tests, to pause a scan
 * at an exact point (wrap the default one and block inside {@link #list}). Implementations must be safe to call from
 * several scans at once. A scan lists directories on a walker thread of its own, ahead of applying the listings on
 * the thread that runs the scan, so blocking inside {@link #list} stops the reading only: a walker that pauses a scan
 * first calls {@code io.fsindex.core.scan.ListingPause.awaitEarlierListingsApplied()}, so that the scan has applied what
 * it read before.
 */
public interface Walker {

    /**
     * Reads one entry's attributes without following a symbolic link at {@code path}.
     *
     * @param path the entry
     * @return its attributes
     * @throws java.nio.file.NoSuchFileException   if nothing exists at {@code path}
     * @throws java.nio.file.AccessDeniedException if permission is denied
     */
    FileStat stat(Path path) throws IOException;

    /**
     * Reads the attributes of what {@code path} finally points to, following every symbolic link; used only when a
     * scan follows links.
     *
     * @param path the entry
     * @return the attributes of what it finally points to
     * @throws java.nio.file.NoSuchFileException if the link is broken
     */
    FileStat statFollowingLinks(Path path) throws IOException;

    /**
     * Lists one directory completely, with each entry's attributes.
     *
     * @param directory the directory
     * @return its entries, and what could not be read
     * @throws java.nio.file.NoSuchFileException    if the directory no longer exists
     * @throws java.nio.file.NotDirectoryException  if it is no longer a directory
     * @throws java.nio.file.AccessDeniedException  if it cannot be read
     */
    DirectoryListing list(Path directory) throws IOException;

    /**
     * Lists one directory as {@link #list(Path)} does, but hands the listing over in parts of at most
     * {@code partSize} entries as they are read, so that a directory of millions of entries is never held whole. The
     * parts, in the order given, are the listing; at least one is given, possibly empty. A failure while reading
     * comes after the parts read before it. The default lists the directory whole and splits it; walkers that can
     * read a directory incrementally should override it.
     *
     * @param directory the directory
     * @param partSize  the most entries one part may hold
     * @param parts     takes each part in turn
     * @throws java.nio.file.NoSuchFileException    if the directory no longer exists
     * @throws java.nio.file.NotDirectoryException  if it is no longer a directory
     * @throws java.nio.file.AccessDeniedException  if it cannot be read
     */
    default void list(Path directory, int partSize, Parts parts) throws IOException {
        DirectoryListing all = list(directory);
        List<WalkedEntry> entries = all.entries();
        for (int from = 0; from == 0 || from < entries.size(); from += partSize) {
            parts.accept(new DirectoryListing(entries.subList(from, Math.min(entries.size(), from + partSize)),
                    from == 0 ? all.problems() : List.of()));
        }
    }

    /** Takes the parts of a listing from {@link #list(Path, int, Parts)}. */
    @FunctionalInterface
    interface Parts {
        /**
         * Takes the next part: up to the part size entries, and the problems met reading them.
         *
         * @param part the next part of the listing
         * @throws IOException to stop the listing with this failure
         */
        void accept(DirectoryListing part) throws IOException;
    }
}
