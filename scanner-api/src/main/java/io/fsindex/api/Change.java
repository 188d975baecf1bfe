package io.fsindex.api;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * One committed change to one entry, as the change feed ({@code FsIndex.changesSince}) and
 * {@link ScanListener#changed} report it.
 *
 * @param seq          the change's place in the feed: numbers start at 1, are never reused and have no gaps; a
 *                     change committed later always has a larger number
 * @param id           the entry's id (a moved entry keeps its id)
 * @param type         what happened
 * @param kind         the entry's kind after the change (before it, for {@link ChangeType#DELETED})
 * @param path         where the entry is now (where it was, for {@link ChangeType#DELETED})
 * @param previousPath where a {@link ChangeType#MOVED} entry was before; {@code null} for other changes
 * @param scanId       the scan that made the change
 * @param at           when the change was written
 */
public record Change(long seq, long id, ChangeType type, FileKind kind, Path path, Path previousPath, long scanId,
                     Instant at) {
    /**
     * Checks that type, kind and path are given.
     *
     * @param seq          the change's place in the feed: numbers start at 1, are never reused and have no gaps; a
     *                     change committed later always has a larger number
     * @param id           the entry's id (a moved entry keeps its id)
     * @param type         what happened
     * @param kind         the entry's kind after the change (before it, for {@link ChangeType#DELETED})
     * @param path         where the entry is now (where it was, for {@link ChangeType#DELETED})
     * @param previousPath where a {@link ChangeType#MOVED} entry was before; {@code null} for other changes
     * @param scanId       the scan that made the change
     * @param at           when the change was written
     */
    public Change {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(path, "path");
    }
}
