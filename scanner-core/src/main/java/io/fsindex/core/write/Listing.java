package io.fsindex.core.write;

import io.fsindex.api.FileKind;
import io.fsindex.api.FileSink.Applied;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One directory's listing while it is applied: the listing and, per entry, what its existing row needs.
 * The existing children are streamed once and compared on the fly against the listing (by name, through an
 * index of the listing's own name strings), so the memory used beyond the listing itself is a few bytes per
 * entry, not a row object each.
 */
final class Listing {
    static final byte NEWER = 1, UNCHANGED = 2, CHANGED = 3, REWRITE = 4, REVIVED = 5, MOVED = 6;

    /**
     * True for a row a listing by this scan marks stale if it does not list the name: not an orphan, and written by an
     * older scan or by this one without a stale mark (what {@link Statements#countListable} counts).
     */
    static boolean isListable(boolean orphan, long scanId, boolean stale, long scan) {
        return !orphan && (scanId < scan || (scanId == scan && !stale));
    }
    final Directory dir;
    final List<WalkedEntry> entries;
    /**
     * True for one part of a directory's listing ({@link PartedListings#applyPart}): only the part's own names are read and
     * compared, and what is missing is found once all parts are in.
     */
    final boolean part;
    /** For a part, the names it tried to insert: its added rows are found by name, not by directory. */
    final List<String> triedNames;
    boolean owned;
    /** Rows of unreadable entries that stay listable (see {@link #listable}). */
    long keptUnreadable;
    /** The listing's names by position, once {@link #byName()} first needs them. */
    NameIndex byName;
    long[] ids;                             // the existing row's id, 0 for none (a new name)
    byte[] seen;                            // what the existing row needs
    final LongList missing = new LongList();
    final LongList keep = new LongList();
    final List<Row> converted = new ArrayList<>();
    long skipped, unchanged, moved, back, modified, revived, triedInserting, inserted;
    final List<Directory> subdirectories = new ArrayList<>();
    /** Entries that are directories now but whose rows were not live directories (orphans or other kinds). */
    final java.util.BitSet newDirectories = new java.util.BitSet();

    Listing(Directory dir, List<WalkedEntry> entries) {
        this(dir, entries, false);
    }

    /** The directory is one of {@link WriteContext#freshDirs}: nothing but this listing's rows can be below it. */
    boolean fresh;
    /** Its new rows went to the bulk loader, with their ids (set by {@link RowWriter#insertNew}). */
    boolean loaded;

    Listing(Directory dir, List<WalkedEntry> entries, boolean part) {
        this.dir = dir;
        this.entries = entries;
        this.part = part;
        this.triedNames = part ? new ArrayList<>() : null;
    }

    /**
     * The order to insert entries in: as listed, except for a part of a huge directory, which goes in name order
     * so that its rows go into the (parent, name) index in one sweep instead of at random places all over it.
     */
    int[] insertOrder() {
        java.util.stream.IntStream order = java.util.stream.IntStream.range(0, entries.size());
        return part ? order.boxed().sorted(java.util.Comparator.comparing(i -> entries.get(i).name()))
                .mapToInt(Integer::intValue).toArray() : order.toArray();
    }

    /** Records that the row for entry {@code i} is about to be inserted. */
    void tryInserting(int i) {
        triedInserting++;
        if (part) {
            triedNames.add(entries.get(i).name());
        }
    }

    /**
     * How many of this listing's rows are listable once it is applied (counted by {@link
     * Statements#countListable}): every row it wrote or left unchanged, none a newer scan wrote.
     */
    long listable() {
        return unchanged + modified + revived + moved + inserted + keptUnreadable;
    }

    /** Prepares the comparison with the rows, once the scan is known to own the directory. */
    void index() {
        int n = entries.size();
        ids = new long[n];
        seen = new byte[n];
    }

    /**
     * The listing's names, indexed when the first existing row is compared: a new directory's listing (every
     * listing of a cold scan) has no rows to compare, and indexing its names anyway was about 4 % of the samples
     * of a SQLite cold scan's scan thread.
     */
    NameIndex byName() {
        if (byName == null) {
            byName = new NameIndex(entries);
        }
        return byName;
    }

    /** Compares one existing child row ({@link Statements#FILE_COLUMNS}) with the listing. */
    void compare(ResultSet rs, long scan, ChangeLog log) throws SQLException {
        long id = rs.getLong(1);
        String name = rs.getString(3);
        long scanId = rs.getLong(8);
        boolean stale = rs.getInt(10) != 0;
        boolean orphan = rs.getLong(12) != 0;
        log.requireNotInsertedMeanwhile(id, scanId);
        int at = byName().indexOf(name);
        if (at < 0) {
            // Missing from the listing: gone, unless a newer scan wrote it (or this scan marked it already, or
            // it is an orphan, found gone before).
            if (isListable(orphan, scanId, stale, scan)) {
                missing.add(id);
            }
            return;
        }
        int i = at;
        ids[i] = id;
        WalkedEntry e = entries.get(i);
        if (!e.isReadable()) {
            // Exists, attributes unknown: keep the row as it is; only take over an older scan's stale mark, so
            // that scan does not delete what this newer scan has seen exist.
            if (stale && scanId < scan) {
                keep.add(id);
            }
            if (isListable(orphan, scanId, stale, scan)) {
                keptUnreadable++;
            }
            return;
        }
        String kind = rs.getString(4);
        if (scanId > scan) {
            seen[i] = NEWER;                // a newer scan wrote this row; what it recorded stands
            skipped++;
            return;
        }
        FileStat stat = e.stat();
        boolean same = kind.equals(stat.kind().name()) && rs.getLong(5) == stat.size()
                && rs.getLong(6) == stat.mtimeNanos() && Objects.equals(rs.getString(7), stat.linkTarget());
        Long storedKey = Row.nullableLong(rs, 11);
        Long key = WriteContext.keyOf(stat);
        if (!same && FileKind.DIRECTORY.name().equals(kind) && !stat.isDirectory()) {
            converted.add(Row.read(rs));
        }
        if (stat.isDirectory() && (orphan || !FileKind.DIRECTORY.name().equals(kind))) {
            newDirectories.set(i);          // for a directory scan: walked although it has a row
        }
        if (orphan) {
            seen[i] = REVIVED;              // back where it was found gone: in the index again
        } else if (!same || (storedKey != null && key != null && !storedKey.equals(key))) {
            seen[i] = CHANGED;              // other attributes, or another file under the same name
        } else if (stale || !Objects.equals(storedKey, key)) {
            seen[i] = REWRITE;              // only the stale mark to take back, or the identity to record
        } else {
            seen[i] = UNCHANGED;            // nothing to write: the row already says what this scan saw
            unchanged++;
        }
    }

    Path pathOf(int i) {
        return dir.path().resolve(entries.get(i).name());
    }

    private String dirPath;

    /** The directory's path as the feed stores it, made once. */
    String dirPath() {
        if (dirPath == null) {
            dirPath = dir.path().toString();
        }
        return dirPath;
    }

    Applied applied() {
        return new Applied(subdirectories, revived + back + inserted, modified, moved, unchanged,
                skipped + Math.max(0, triedInserting - inserted));
    }

    /** What applying this listing did, once its wave is applied. */
    Applied result() {
        return owned ? applied() : notOwned();
    }

    /** What applying nothing reports: every readable entry skipped (a newer scan's listing decides). */
    Applied notOwned() {
        return new Applied(List.of(), 0, 0, 0, 0, entries.stream().filter(WalkedEntry::isReadable).count());
    }
}
