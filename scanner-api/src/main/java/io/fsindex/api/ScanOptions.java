package io.fsindex.api;

import java.util.Objects;

/**
 * How one scan runs. Immutable; start from {@link #defaults()} and change what you need:
 * <pre>{@code ScanOptions.defaults().withListener(myListener).withFollowSymlinks(true)}</pre>
 *
 * @param walker            reads the filesystem; {@code null} means the index's walker (NIO by default)
 * @param listener          receives progress events
 * @param followSymlinks    descend into symbolic links to directories (loops are detected and reported); by default
 *                          links are recorded with their target and not followed
 * @param removeMissingRoot if the scan root no longer exists, remove its row and subtree (unless a newer scan
 *                          covers it) instead of failing; off by default, so an unmounted drive is never mistaken
 *                          for a deleted one
 * @param contentHashing    how much of each file's content to read and hash ({@link ContentHashing#OFF} by default)
 */
public record ScanOptions(Walker walker, ScanListener listener, boolean followSymlinks, boolean removeMissingRoot,
                          ContentHashing contentHashing) {
    public ScanOptions {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(contentHashing, "contentHashing");
    }

    /**
     * The defaults: the index's walker, no listener, links not followed, a missing root fails the scan, no content
     * read.
     */
    public static ScanOptions defaults() {
        return new ScanOptions(null, ScanListener.NONE, false, false, ContentHashing.OFF);
    }

    /** Returns these options with another walker. */
    public ScanOptions withWalker(Walker walker) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing);
    }

    /** Returns these options with another listener. */
    public ScanOptions withListener(ScanListener listener) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing);
    }

    /** Returns these options with symbolic links followed or not. */
    public ScanOptions withFollowSymlinks(boolean follow) {
        return new ScanOptions(walker, listener, follow, removeMissingRoot, contentHashing);
    }

    /** Returns these options with a missing root removed from the index instead of failing the scan. */
    public ScanOptions withRemoveMissingRoot(boolean remove) {
        return new ScanOptions(walker, listener, followSymlinks, remove, contentHashing);
    }

    /** Returns these options with content read and hashed as {@code hashing} says; see {@link ContentHashing}. */
    public ScanOptions withContentHashing(ContentHashing hashing) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, hashing);
    }
}
