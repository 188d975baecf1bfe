package io.fsindex.api;

/** What happened to an entry in one {@link Change}. */
public enum ChangeType {
    /** The entry appeared in the index (new, or back after it was reported {@link #DELETED}). */
    ADDED,
    /** The entry's recorded attributes (kind, size, modification time, link target) changed. */
    MODIFIED,
    /**
     * The entry was renamed or moved, keeping its id; a moved directory's descendants move with it and get no
     * change of their own.
     */
    MOVED,
    /** The entry left the index; for a directory, each descendant gets its own {@code DELETED} too. */
    DELETED
}
