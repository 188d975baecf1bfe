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
 * @param scope             the rules the caller expects for the root, or {@code null} (the default) to apply the
 *                          stored ones; given rules must equal those stored for the root or a directory above it
 *                          (else {@link ScopeException}), and where none are stored they are stored for the root
 * @param acceptMountChanges accept that the root, or a directory below it, now sits on another device than when it
 *                          was last scanned (a disk unmounted or replaced) and index what is there now; off by
 *                          default, so such a directory's rows are kept as they were
 */
public record ScanOptions(Walker walker, ScanListener listener, boolean followSymlinks, boolean removeMissingRoot,
                          ContentHashing contentHashing, ScanScope scope, boolean acceptMountChanges) {
    /**
     * Checks that a listener and a content hashing mode are given.
     *
     * @param walker            reads the filesystem; {@code null} means the index's walker (NIO by default)
     * @param listener          receives progress events
     * @param followSymlinks    descend into symbolic links to directories (loops are detected and reported); by
     *                          default links are recorded with their target and not followed
     * @param removeMissingRoot if the scan root no longer exists, remove its row and subtree (unless a newer scan
     *                          covers it) instead of failing; off by default, so an unmounted drive is never mistaken
     *                          for a deleted one
     * @param contentHashing    how much of each file's content to read and hash ({@link ContentHashing#OFF} by
     *                          default)
     * @param scope             the rules the caller expects for the root, or {@code null} to apply the stored ones
     * @param acceptMountChanges accept directories that now sit on another device than when last scanned
     */
    public ScanOptions {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(contentHashing, "contentHashing");
    }

    /**
     * The defaults: the index's walker, no listener, links not followed, a missing root fails the scan, no content
     * read.
     *
     * @return the default options
     */
    public static ScanOptions defaults() {
        return new ScanOptions(null, ScanListener.NONE, false, false, ContentHashing.OFF, null, false);
    }

    /**
     * @param walker the walker to read the filesystem with; {@code null} for the index's
     * @return these options with another walker
     */
    public ScanOptions withWalker(Walker walker) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing,
                scope, acceptMountChanges);
    }

    /**
     * @param listener receives the scan's progress events
     * @return these options with another listener
     */
    public ScanOptions withListener(ScanListener listener) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing,
                scope, acceptMountChanges);
    }

    /**
     * @param follow whether to descend into symbolic links to directories
     * @return these options with symbolic links followed or not
     */
    public ScanOptions withFollowSymlinks(boolean follow) {
        return new ScanOptions(walker, listener, follow, removeMissingRoot, contentHashing,
                scope, acceptMountChanges);
    }

    /**
     * @param remove whether a missing root is removed from the index instead of failing the scan
     * @return these options with that choice
     */
    public ScanOptions withRemoveMissingRoot(boolean remove) {
        return new ScanOptions(walker, listener, followSymlinks, remove, contentHashing,
                scope, acceptMountChanges);
    }

    /**
     * @param hashing how much of each file's content to read; see {@link ContentHashing}
     * @return these options with content read and hashed as {@code hashing} says
     */
    public ScanOptions withContentHashing(ContentHashing hashing) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, hashing,
                scope, acceptMountChanges);
    }

    /**
     * @param rules the rules this scan expects for its root ({@code null}: whatever is stored); see {@link ScanScope}
     * @return these options with those rules
     */
    public ScanOptions withScope(ScanScope rules) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing, rules,
                acceptMountChanges);
    }

    /**
     * @param accept whether to index what is now at a directory that sits on another device than when it was last
     *               scanned, instead of keeping its rows as they were
     * @return these options with that choice
     */
    public ScanOptions withAcceptMountChanges(boolean accept) {
        return new ScanOptions(walker, listener, followSymlinks, removeMissingRoot, contentHashing, scope, accept);
    }
}
