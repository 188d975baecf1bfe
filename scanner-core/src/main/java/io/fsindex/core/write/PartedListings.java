package io.fsindex.core.write;

import io.fsindex.api.FileSink.Applied;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.internal.Statements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Applies a huge directory's listing part by part, each part in a transaction of its own.
 */
final class PartedListings {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final Set<Long> freshDirs;

    PartedListings(WriteContext ctx, ListingWaves waves) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.freshDirs = ctx.freshDirs();
        this.waves = waves;
    }

    private final ListingWaves waves;

    /**
     * What the parts of one directory's listing applied so far add up to ({@link #applyPart}): how many rows they
     * leave listable, and whether this scan owned the directory for all of them.
     */
    static final class PartTally {
        private long listable;
        private boolean lost;
        private long added, modified, moved, unchanged, skipped;

        /** What the whole listing did, once its last part is applied; its subdirectories went with each part. */
        Applied applied() {
            return new Applied(List.of(), added, modified, moved, unchanged, skipped);
        }

        void add(Applied a) {
            added += a.added();
            modified += a.modified();
            moved += a.moved();
            unchanged += a.unchanged();
            skipped += a.skipped();
        }
    }

    /**
     * Applies one part of a directory's listing in its own transaction, so that a directory of millions of entries
     * is never held whole: the part's own names are compared with their rows and written as {@link #applyGroup}
     * would. Rows of names no part listed (missing: gone from the disk) are looked for with the last part: if the
     * directory has as many listable rows as the parts accounted for, none is; otherwise its rows are paged through
     * by name and the ones whose file no longer exists are marked stale. A part of a directory a newer scan has
     * claimed meanwhile is not applied, and then neither is any later part.
     */
    Applied applyPart(Directory dir, List<WalkedEntry> part, PartTally parts, boolean last) {
        if (parts.lost) {
            return new Listing(dir, part).notOwned();
        }
        Listing applied = ctx.write(conn -> {
            Listing l = new Listing(dir, part, true);
            waves.applyWave(List.of(l));
            // A fresh directory has no rows but its parts' own (and a newer partial scan's trunk): none is missing.
            if (l.isOwned() && last && !l.isFresh()) {
                markMissing(dir, parts.listable + l.listable());
            }
            return l;
        });
        Applied a = applied.result();
        parts.lost = !applied.isOwned();
        if (last || parts.lost) {
            freshDirs.remove(dir.id());
        }
        parts.listable += applied.isOwned() ? applied.listable() : 0;
        parts.add(a);
        return a;
    }

    /** Marks stale the rows below {@code dir} whose file is gone, unless it has just the {@code listed} rows. */
    void markMissing(Directory dir, long listed) throws SQLException {
        long rows;
        try (ResultSet rs = ctx.q(st.countListable).set("dir", dir.id()).set("scan", scan).statement.executeQuery()) {
            rs.next();
            rows = rs.getLong(1);
        }
        if (rows == listed) {
            return;
        }
        LongList missing = new LongList();
        String after = "";
        for (int page = Statements.PAGE_ROWS; page == Statements.PAGE_ROWS; ) {
            page = 0;
            try (ResultSet rs = ctx.q(st.childrenAfter).set("dir", dir.id()).set("after", after).statement
                    .executeQuery()) {
                while (rs.next()) {
                    page++;
                    after = rs.getString(Row.NAME);
                    if (Listing.isListable(rs.getLong(Row.GONE_AT) != 0, rs.getLong(Row.SCAN_ID), rs.getInt(Row.STALE) != 0,
                            scan)
                            && !ctx.stillThere(dir.path().resolve(after))) {
                        missing.add(rs.getLong(Row.ID));
                    }
                }
            }
        }
        ctx.executeInChunks(ctx.q(st.markStale), missing, "id");
    }
}
