package io.fsindex.core.query;

import io.fsindex.api.FileQuery;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ids a find's walk below a directory matched, kept for the pages after the one that walked, so that a find read
 * a page at a time walks the directory once instead of once per page. A page read from kept ids checks each row
 * against the query again, and its path against the directory, so an entry that matches throughout is returned
 * once and one that stopped matching is not; only an entry added after the walk is missed, which the pagination's
 * rule allows. A first page ({@code after} 0) always walks afresh. Bounded by a total number of ids, oldest first
 * out.
 */
final class CarriedWalks {
    /** The most ids kept in all (8 bytes each). */
    static final int MAX_IDS = 1 << 20;

    /** What a walk is kept under: the query without its cursor and page size, and its directory's id. */
    private record Key(FileQuery query, long under) {
        static Key of(FileQuery query, long under) {
            return new Key(query.after(0).withLimit(1), under);
        }
    }

    /**
     * The sorted ids a walk matched after cursor {@code from}: good for any page whose cursor is at or after it and,
     * unless the walk picked all its matches, before the last id picked.
     *
     * @param from     the cursor the walk was asked after
     * @param ids      the ids it matched, ascending
     * @param complete whether these are all its matches, or only the first ones
     */
    record Walked(long from, long[] ids, boolean complete) {
        /** Whether a page after {@code cursor} can be read from these ids. */
        boolean serves(long cursor) {
            return from <= cursor && (complete || ids.length > 0 && cursor < ids[ids.length - 1]);
        }

        /** The cursor after the last id picked, for a page read from these ids after {@code cursor}. */
        long lastAfter(long cursor) {
            return ids.length == 0 ? cursor : Math.max(cursor, ids[ids.length - 1]);
        }

        /** The position of the first id after {@code cursor}. */
        int firstAfter(long cursor) {
            int at = Arrays.binarySearch(ids, cursor);
            return at >= 0 ? at + 1 : -at - 1;
        }
    }

    private final Map<Key, Walked> kept = new LinkedHashMap<>(16, 0.75f, true);
    private long keptIds;

    /** The walk kept for {@code query}'s later page below {@code under}; null on a first page or if none is kept. */
    synchronized Walked forPage(FileQuery query, long under) {
        if (query.after() == 0) {
            return null;
        }
        Walked walked = kept.get(Key.of(query, under));
        return walked != null && walked.serves(query.after()) ? walked : null;
    }

    /** Keeps {@code walked} for the later pages of {@code query} below {@code under}. */
    synchronized void keep(FileQuery query, long under, Walked walked) {
        Walked old = kept.put(Key.of(query, under), walked);
        keptIds += walked.ids().length - (old == null ? 0 : old.ids().length);
        for (Iterator<Walked> oldest = kept.values().iterator(); keptIds > MAX_IDS && oldest.hasNext(); ) {
            Walked out = oldest.next();
            if (out != walked) {
                keptIds -= out.ids().length;
                oldest.remove();
            }
        }
    }
}
