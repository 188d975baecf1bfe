package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
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
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * One directory's listing while it is applied: the listing and, per entry, what its existing row needs.
 * The existing children are streamed once and compared on the fly against the listing (by name, through an
 * index of the listing's own name strings), so the memory used beyond the listing itself is a few bytes per
 * entry, not a row object each. The other write classes ask and tell it through its methods; its state is its own.
 */
final class Listing {
    // What an entry's existing row needs (0: not compared with a row, so new or inserted by this listing).
    private static final byte NEWER = 1, UNCHANGED = 2, CHANGED = 3, REWRITE = 4, REVIVED = 5, MOVED = 6;

    /**
     * True for a row a listing by this scan marks stale if it does not list the name: not an orphan, and written by an
     * older scan or by this one without a stale mark (what {@link Statements#countListable} counts).
     */
    static boolean isListable(boolean orphan, long scanId, boolean stale, long scan) {
        return !orphan && (scanId < scan || (scanId == scan && !stale));
    }

    private Directory dir;
    private final List<WalkedEntry> entries;
    /**
     * True for one part of a directory's listing ({@link PartedListings#applyPart}): only the part's own names are read and
     * compared, and what is missing is found once all parts are in.
     */
    private final boolean part;
    /**
     * The names it tried to insert, by which its added rows are found where the directory cannot tell them; kept only
     * then ({@link #addedRowsNeedNames}, settled by the moves, which come before any insert).
     */
    private final List<String> triedNames = new ArrayList<>();
    /** A row this transaction inserted elsewhere was moved here (see {@link #addedRowsNeedNames}). */
    private boolean tookOwnNewRow;
    private boolean owned;
    /** The directory is one of {@link WriteContext#freshDirs}: nothing but this listing's rows can be below it. */
    private boolean fresh;
    /** Its new rows went to the bulk loader, with their ids (decided by {@link #useLoader}). */
    private boolean loaded;
    /** Rows of unreadable entries that stay listable (see {@link #listable}). */
    private long keptUnreadable;
    /** The listing's names by position, once {@link #byName()} first needs them. */
    private NameIndex byName;
    private long[] ids;                             // the existing row's id, 0 for none (a new name)
    private byte[] seen;                            // what the existing row needs
    private final LongList missing = new LongList();
    private final LongList keep = new LongList();
    private final List<Row> converted = new ArrayList<>();
    private long skipped, unchanged, moved, back, modified, revived, triedInserting, inserted;
    private final List<Directory> subdirectories = new ArrayList<>();
    /** Entries that are directories now but whose rows were not live directories (orphans or other kinds). */
    private final BitSet newDirectories = new BitSet();
    private String dirPath;

    Listing(Directory dir, List<WalkedEntry> entries) {
        this(dir, entries, false);
    }

    Listing(Directory dir, List<WalkedEntry> entries, boolean part) {
        this.dir = dir;
        this.entries = entries;
        this.part = part;
    }

    /** The directory listed. */
    Directory dir() {
        return dir;
    }

    /** Points the listing at {@code now}, its directory where a move put it ({@link WriteContext#current}). */
    void relocate(Directory now) {
        if (now != dir) {
            dir = now;
            dirPath = null;
        }
    }

    /** How many entries the listing has. */
    int size() {
        return entries.size();
    }

    /** Entry {@code i} of the listing, in the walker's order. */
    WalkedEntry entry(int i) {
        return entries.get(i);
    }

    /** The listing's entries, in the walker's order. */
    List<WalkedEntry> entries() {
        return entries;
    }

    /** True for one part of a huge directory's listing (see {@link PartedListings}). */
    boolean isPart() {
        return part;
    }

    /** The names it tried to insert, in order, where {@link #addedRowsNeedNames}; empty otherwise. */
    List<String> triedNames() {
        return triedNames;
    }

    /**
     * True if the rows this listing inserted must be found by the names it tried to insert rather than as this scan's
     * new rows below the directory: for a part (the directory holds every part's rows), and for a listing that took
     * over a row this transaction inserted elsewhere (which is below the directory now, as new as its own rows).
     */
    boolean addedRowsNeedNames() {
        return part || tookOwnNewRow;
    }

    /** Records whether the directory is one this scan inserted, so that it has no rows to compare the listing with. */
    void markFresh(boolean fresh) {
        this.fresh = fresh;
    }

    /** True if the directory is one this scan inserted: nothing but this listing's rows can be below it. */
    boolean isFresh() {
        return fresh;
    }

    /** Takes the listing on as this scan's to apply (no newer scan claimed the directory) and prepares the diff. */
    void own() {
        int n = entries.size();
        ids = new long[n];
        seen = new byte[n];
        owned = true;
    }

    /** True once {@link #own} took the listing on. */
    boolean isOwned() {
        return owned;
    }

    /**
     * The order to insert entries in: as listed, except for a part of a huge directory, which goes in name order
     * so that its rows go into the (parent, name) index in one sweep instead of at random places all over it.
     */
    int[] insertOrder() {
        IntStream order = IntStream.range(0, entries.size());
        return part ? order.boxed().sorted(Comparator.comparing(i -> entries.get(i).name()))
                .mapToInt(Integer::intValue).toArray() : order.toArray();
    }

    /**
     * Decides whether this listing's new rows go to the bulk loader: only if the loader is usable and the directory
     * is fresh (no row below it can clash); returns the decision, which {@link #isLoaded} keeps.
     */
    boolean useLoader(boolean loaderUsable) {
        loaded = loaderUsable && fresh;
        return loaded;
    }

    /** True if this listing's new rows went to the bulk loader, which told their ids. */
    boolean isLoaded() {
        return loaded;
    }

    /** Records that the row for entry {@code i} is about to be inserted. */
    void tryInserting(int i) {
        triedInserting++;
        if (addedRowsNeedNames()) {
            triedNames.add(entries.get(i).name());
        }
    }

    /** True if rows were inserted without learning their ids, so they must be read back to be recorded. */
    boolean needsInsertedReadBack() {
        return !loaded && triedInserting > 0;
    }

    /** Records that entry {@code i}'s row went in with id {@code id}. */
    void inserted(int i, long id) {
        ids[i] = id;
        inserted++;
    }

    /** Records that a re-inserted row (whose id is not kept) went in. */
    void reinserted() {
        inserted++;
    }

    /** Sets how many rows this listing inserted, as counted from the rows (where inserts return no ids). */
    void setInserted(long count) {
        inserted = count;
    }

    /** How many rows this listing inserted. */
    long insertedCount() {
        return inserted;
    }

    /** True if entry {@code i} has a row: one it was compared with, one moved to it, or one it inserted. */
    boolean hasRow(int i) {
        return ids[i] != 0;
    }

    /** The id of entry {@code i}'s row, 0 for none known. */
    long idAt(int i) {
        return ids[i];
    }

    /** True if entry {@code i}'s row was inserted by this listing's own insert: its id known, never compared. */
    boolean insertedHere(int i) {
        return ids[i] != 0 && seen[i] == 0;
    }

    /** True if entry {@code i} was never compared with an existing row (none had its name). */
    boolean notCompared(int i) {
        return seen[i] == 0;
    }

    /**
     * True if directory entry {@code i}'s row was a live directory in this place already: not new, not moved here,
     * not revived, and no other kind before; a directory scan leaves such a directory unlisted.
     */
    boolean wasDirectoryHere(int i) {
        return ids[i] != 0 && seen[i] != MOVED && seen[i] != REVIVED && !newDirectories.get(i);
    }

    /** True if entry {@code i}'s existing row must be written: changed, its stale mark to take back, or revived. */
    boolean needsUpdate(int i) {
        return seen[i] == CHANGED || seen[i] == REWRITE || seen[i] == REVIVED;
    }

    /** True if entry {@code i}'s row is an orphan coming back into the index (written by the revival statement). */
    boolean isRevival(int i) {
        return seen[i] == REVIVED;
    }

    /**
     * Counts entry {@code i}'s update as written and returns the change it records: {@code ADDED} for a revival,
     * {@code MODIFIED} for changed attributes, null for a rewrite that changed nothing a user sees.
     */
    ChangeType updated(int i) {
        if (seen[i] == REWRITE) {
            unchanged++;
            return null;
        }
        if (seen[i] == REVIVED) {
            revived++;
            return ChangeType.ADDED;
        }
        modified++;
        return ChangeType.MODIFIED;
    }

    /** Entry {@code i} now stands for orphan row {@code id}, found gone since it was read and revived. */
    void revivedAs(int i, long id) {
        ids[i] = id;
        seen[i] = REVIVED;
    }

    /** Entry {@code i}'s row is gone since it was read: it will be inserted again, under a new id. */
    void reinsertAt(int i) {
        ids[i] = 0;
        tryInserting(i);
    }

    /**
     * Entry {@code i} took over the moved row {@code id}, which brought {@code descendantsBack} rows back;
     * {@code ownNewRow} if this transaction inserted that row (elsewhere).
     */
    void movedHere(int i, long id, long descendantsBack, boolean ownNewRow) {
        if (ownNewRow && triedInserting > 0) {
            // triedNames is kept only once addedRowsNeedNames says so: the names tried before would be missing.
            throw new IllegalStateException("a move found after listing " + dirPath() + " inserted rows");
        }
        tookOwnNewRow |= ownNewRow;
        ids[i] = id;
        seen[i] = MOVED;
        moved++;
        back += descendantsBack;
    }

    /** Counts one entry this scan leaves to a newer scan. */
    void skip() {
        skipped++;
    }

    /** Adds a subdirectory this listing claimed, so the scan lists it next. */
    void addSubdirectory(Directory sub) {
        subdirectories.add(sub);
    }

    /**
     * How many of this listing's rows are listable once it is applied (counted by {@link
     * Statements#countListable}): every row it wrote or left unchanged, none a newer scan wrote.
     */
    long listable() {
        return unchanged + modified + revived + moved + inserted + keptUnreadable;
    }

    /**
     * The listing's names, indexed when the first existing row is compared: a new directory's listing (every
     * listing of a cold scan) has no rows to compare, and indexing its names anyway cost a measurable share of a
     * SQLite cold scan's scan thread.
     */
    NameIndex byName() {
        if (byName == null) {
            byName = new NameIndex(entries);
        }
        return byName;
    }

    /** Lets the name index go once the rows are compared: a huge directory's would otherwise stay till the end. */
    void dropNameIndex() {
        byName = null;
    }

    /** The rows that were directories and are now something else, to empty below (read during the comparison). */
    List<Row> convertedDirectories() {
        return converted;
    }

    /**
     * Adds the ids of the rows whose older stale mark this scan takes over to {@code keepInto}, and of the rows
     * missing from the listing (to be marked stale) to {@code missingInto}.
     */
    void collectMarks(LongList keepInto, LongList missingInto) {
        keepInto.addAll(keep);
        missingInto.addAll(missing);
    }

    /** Compares one existing child row ({@link Row#COLUMNS} first) with the listing. */
    void compare(ResultSet rs, long scan, ChangeLog log) throws SQLException {
        long id = rs.getLong(Row.ID);
        String name = rs.getString(Row.NAME);
        long scanId = rs.getLong(Row.SCAN_ID);
        boolean stale = rs.getInt(Row.STALE) != 0;
        boolean orphan = rs.getLong(Row.GONE_AT) != 0;
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
        String kind = rs.getString(Row.KIND);
        if (scanId > scan) {
            seen[i] = NEWER;                // a newer scan wrote this row; what it recorded stands
            skipped++;
            return;
        }
        FileStat stat = e.stat();
        boolean same = kind.equals(stat.kind().name()) && rs.getLong(Row.SIZE) == stat.size()
                && rs.getLong(Row.MTIME) == stat.mtimeNanos()
                && Objects.equals(rs.getString(Row.LINK_TARGET), stat.linkTarget());
        Long storedKey = Row.nullableLong(rs, Row.FILE_KEY);
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

    /** Entry {@code i}'s path. */
    Path pathOf(int i) {
        return dir.path().resolve(entries.get(i).name());
    }

    /** The directory's path as the feed stores it, made once. */
    String dirPath() {
        if (dirPath == null) {
            dirPath = dir.path().toString();
        }
        return dirPath;
    }

    /** What applying this listing did, once its wave is applied. */
    Applied result() {
        return owned ? new Applied(subdirectories, revived + back + inserted, modified, moved, unchanged,
                skipped + Math.max(0, triedInserting - inserted)) : notOwned();
    }

    /** What applying nothing reports: every readable entry skipped (a newer scan's listing decides). */
    Applied notOwned() {
        return new Applied(List.of(), 0, 0, 0, 0, entries.stream().filter(WalkedEntry::isReadable).count());
    }
}
