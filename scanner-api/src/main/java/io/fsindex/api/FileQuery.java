package io.fsindex.api;

import java.nio.file.Path;
import java.time.Instant;

/**
 * What {@link IndexReader#find} looks for: every criterion given must hold; one left {@code null} does not restrict.
 * Start from {@link #any()} and narrow with the {@code with…} methods. Results come ordered by entry id, a page of at
 * most {@link #limit()} at a time; to read on, ask again with {@link #after(long)} set to the page's
 * {@link FindPage#cursor() cursor}.
 *
 * @param nameGlob     the whole name matches this glob, case-sensitively: {@code *} any run of characters,
 *                     {@code ?} one character, {@code [abc]}, {@code [a-z]} and {@code [!abc]} one of a set, and
 *                     {@code \} takes the next character literally
 * @param nameContains the name contains this text, ignoring case
 * @param under        the entry lies below this directory (found as {@link IndexReader#lookup(Path)} finds it; the
 *                     directory itself is not a result)
 * @param kind         the entry is of this kind
 * @param minSize      the size is at least this many bytes
 * @param maxSize      the size is at most this many bytes
 * @param modifiedAfter  the entry was last modified strictly after this instant
 * @param modifiedBefore the entry was last modified strictly before this instant
 * @param contentHash  the file's content hash (hex SHA-256, as in {@link FileEntry#contentHash()}) is this one
 * @param after        only entries with a larger id than this (a previous page's cursor; 0 to start)
 * @param limit        the most entries one page holds
 */
public record FileQuery(String nameGlob, String nameContains, Path under, FileKind kind, Long minSize, Long maxSize,
                        Instant modifiedAfter, Instant modifiedBefore, String contentHash, long after, int limit) {
    /** The page size of {@link #any()}. */
    public static final int DEFAULT_LIMIT = 1_000;

    /**
     * Checks the limits.
     *
     * @param nameGlob       the whole name matches this glob, case-sensitively
     * @param nameContains   the name contains this text, ignoring case
     * @param under          the entry lies below this directory
     * @param kind           the entry is of this kind
     * @param minSize        the size is at least this many bytes
     * @param maxSize        the size is at most this many bytes
     * @param modifiedAfter  the entry was last modified strictly after this instant
     * @param modifiedBefore the entry was last modified strictly before this instant
     * @param contentHash    the file's content hash is this one
     * @param after          only entries with a larger id than this
     * @param limit          the most entries one page holds
     */
    public FileQuery {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive; got " + limit);
        }
        if (after < 0) {
            throw new IllegalArgumentException("after must be a cursor from a previous page (>= 0); got " + after);
        }
    }

    /** {@return a query every entry matches, for the first page of {@link #DEFAULT_LIMIT} entries} */
    public static FileQuery any() {
        return new FileQuery(null, null, null, null, null, null, null, null, null, 0, DEFAULT_LIMIT);
    }

    /**
     * Returns this query with that name glob.
     *
     * @param glob see {@link #nameGlob()}
     * @return this query with that name glob
     */
    public FileQuery withNameGlob(String glob) {
        return new FileQuery(glob, nameContains, under, kind, minSize, maxSize, modifiedAfter, modifiedBefore,
                contentHash, after, limit);
    }

    /**
     * Returns this query with that substring.
     *
     * @param text see {@link #nameContains()}
     * @return this query with that substring
     */
    public FileQuery withNameContaining(String text) {
        return new FileQuery(nameGlob, text, under, kind, minSize, maxSize, modifiedAfter, modifiedBefore,
                contentHash, after, limit);
    }

    /**
     * Returns this query restricted to that directory's subtree.
     *
     * @param directory see {@link #under()}
     * @return this query restricted to that directory's subtree
     */
    public FileQuery withUnder(Path directory) {
        return new FileQuery(nameGlob, nameContains, directory, kind, minSize, maxSize, modifiedAfter,
                modifiedBefore, contentHash, after, limit);
    }

    /**
     * Returns this query restricted to that kind.
     *
     * @param fileKind see {@link #kind()}
     * @return this query restricted to that kind
     */
    public FileQuery withKind(FileKind fileKind) {
        return new FileQuery(nameGlob, nameContains, under, fileKind, minSize, maxSize, modifiedAfter,
                modifiedBefore, contentHash, after, limit);
    }

    /**
     * @param min see {@link #minSize()}, or {@code null}
     * @param max see {@link #maxSize()}, or {@code null}
     * @return this query restricted to that size range
     */
    public FileQuery withSize(Long min, Long max) {
        return new FileQuery(nameGlob, nameContains, under, kind, min, max, modifiedAfter, modifiedBefore,
                contentHash, after, limit);
    }

    /**
     * @param from  see {@link #modifiedAfter()}, or {@code null}
     * @param until see {@link #modifiedBefore()}, or {@code null}
     * @return this query restricted to that modification-time range
     */
    public FileQuery withModified(Instant from, Instant until) {
        return new FileQuery(nameGlob, nameContains, under, kind, minSize, maxSize, from, until, contentHash,
                after, limit);
    }

    /**
     * Returns this query restricted to files of that content.
     *
     * @param hash see {@link #contentHash()}
     * @return this query restricted to files of that content
     */
    public FileQuery withContentHash(String hash) {
        return new FileQuery(nameGlob, nameContains, under, kind, minSize, maxSize, modifiedAfter, modifiedBefore,
                hash, after, limit);
    }

    /**
     * Returns this query for the page after that cursor.
     *
     * @param cursor see {@link #after()}
     * @return this query for the page after that cursor
     */
    public FileQuery after(long cursor) {
        return new FileQuery(nameGlob, nameContains, under, kind, minSize, maxSize, modifiedAfter, modifiedBefore,
                contentHash, cursor, limit);
    }

    /**
     * Returns this query with that page size.
     *
     * @param pageSize see {@link #limit()}
     * @return this query with that page size
     */
    public FileQuery withLimit(int pageSize) {
        return new FileQuery(nameGlob, nameContains, under, kind, minSize, maxSize, modifiedAfter, modifiedBefore,
                contentHash, after, pageSize);
    }
}
