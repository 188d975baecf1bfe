package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds a new entry's old row, by file identity or content fingerprint, and moves it there, keeping its id.
 */
final class MoveDetector {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;
    private final boolean fingerprintMoves;
    private final io.fsindex.core.content.ContentHasher hasher;

    MoveDetector(WriteContext ctx) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
        this.fingerprintMoves = ctx.fingerprintMoves();
        this.hasher = ctx.hasher();
    }

    /**
     * Looks for a moved entry's old row for every new name of the listings that has an identity to go by. One query
     * per few hundred identities first finds which of them any row has at all, so a new subtree (whose identities no
     * row has) costs a few statements, not one per entry.
     */
    void findMoves(List<Listing> owned) throws SQLException {
        LongList keys = new LongList();
        Long[][] keyOfNew = new Long[owned.size()][];  // each new entry's identity, worked out once
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            keyOfNew[w] = new Long[l.size()];
            for (int i = 0; i < l.size(); i++) {
                WalkedEntry e = l.entry(i);
                Long key = !l.hasRow(i) && e.isReadable() ? WriteContext.keyOf(e.stat()) : null;
                if (key != null) {
                    keys.add(key);
                    keyOfNew[w][i] = key;
                }
            }
        }
        Set<Long> known = knownKeys(keys);
        Set<Long> matched = null;          // read only once a candidate is looked for: most waves move nothing
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            Set<Long> above = null;
            for (int i = 0; i < l.size(); i++) {
                WalkedEntry e = l.entry(i);
                if (l.hasRow(i) || !e.isReadable()) {
                    continue;
                }
                Long key = keyOfNew[w][i];
                boolean byKey = key != null && known.contains(key);
                if (!byKey && !(key == null && fingerprintMoves && e.stat().kind() == FileKind.FILE)) {
                    continue;
                }
                if (above == null) {
                    above = new HashSet<>(ctx.locate(l.dir().id()).ids());
                }
                if (matched == null) {
                    matched = matchedRows(owned);
                }
                Moved m = byKey ? tryMove(l.dir(), e, above, matched) : tryMoveByFingerprint(l.dir(), e, matched);
                if (m != null) {
                    l.movedHere(i, m.id(), m.descendantsBack(), m.id() > log.floor());
                }
            }
        }
    }

    /**
     * The rows the listings' entries already stand for, found under their own names: such a row stays with its
     * entry (an orphan revived where it was, another file under the same name), so it is no entry's moved row too.
     */
    private static Set<Long> matchedRows(List<Listing> owned) {
        Set<Long> matched = new HashSet<>();
        for (Listing l : owned) {
            for (int i = 0; i < l.size(); i++) {
                if (l.hasRow(i)) {
                    matched.add(l.idAt(i));
                }
            }
        }
        return matched;
    }

    /** Which of {@code keys} some row of the table has as its file identity. */
    Set<Long> knownKeys(LongList keys) throws SQLException {
        Set<Long> known = new HashSet<>();
        int per = st.knownKeys.max();
        long[] chunk = new long[per];
        for (int from = 0; from < keys.size(); from += per) {
            int n = Math.min(per, keys.size() - from);
            for (int i = 0; i < n; i++) {
                chunk[i] = keys.get(from + i);
            }
            try (ResultSet rs = ctx.forIds(st.knownKeys, chunk, n).statement.executeQuery()) {
                while (rs.next()) {
                    known.add(rs.getLong(1));
                }
            }
        }
        return known;
    }

    /**
     * Moves the row of an entry that has disappeared from its old place to new entry {@code e} in {@code dir},
     * keeping its id, and returns what it moved; null if no row qualifies. A row qualifies if it has the same file
     * identity and kind, the same modification time (and, but for a directory, size) or, for a directory, an entry
     * of its unchanged in the new directory; no newer scan wrote it or listed its old parent; it is not {@code dir}
     * or above it; and it is gone from its old place: an orphan, marked stale by a listing, or nothing exists at its
     * old path any more.
     *
     * @param above the ids of {@code dir} and every directory above it
     * @param matched the rows other entries of the listings stand for, which stay with them
     */
    // Filesystems hand a deleted directory's inode number to the next one created (ext4 and tmpfs at once). A rename
    // leaves the moved directory's own mtime as it was, so the same mtime tells the directory apart from a new one;
    // once entries came or went since, one of its entries under its name, unchanged, does.
    Moved tryMove(Directory dir, WalkedEntry e, Set<Long> above, Set<Long> matched) throws SQLException {
        Long key = WriteContext.keyOf(e.stat());
        List<Row> candidates = new ArrayList<>();
        try (ResultSet rs = ctx.q(st.selectByFileKey).set("key", key).statement.executeQuery()) {
            while (rs.next()) {
                candidates.add(Row.read(rs));
            }
        }
        FileStat stat = e.stat();
        for (Row old : candidates) {
            boolean unchanged = unchanged(old.kind(), old.size(), old.mtime(), stat);
            if (!old.kind().equals(stat.kind().name()) || above.contains(old.id()) || matched.contains(old.id())
                    || !stat.isDirectory() && !unchanged || !mayTakeFromItsPlace(old)) {
                continue;
            }
            Path oldPath = ctx.locate(old.id()).path();
            if (!old.orphan() && !old.stale() && ctx.stillThere(oldPath)
                    || !unchanged && !holdsAnEntryOf(old, dir.path().resolve(e.name()))) {
                continue;
            }
            Moved moved = retarget(dir, e, old, oldPath);
            if (moved != null) {
                return moved;
            }
        }
        return null;
    }

    /**
     * True if directory {@code path} holds one of the entries directly in directory row {@code old} under the same
     * name with the same identity, {@link #unchanged}. The directory is then {@code old}, changed since it moved; a
     * new directory that was handed {@code old}'s inode number holds new entries.
     */
    private boolean holdsAnEntryOf(Row old, Path path) throws SQLException {
        try (ResultSet rs = ctx.q(st.entriesToKnowADirectoryBy).set("dir", old.id()).statement.executeQuery()) {
            while (rs.next()) {
                FileStat now = ctx.statIfThere(path.resolve(rs.getString(1)));
                Long key = rs.getLong(3);
                if (now != null && key.equals(WriteContext.keyOf(now))
                        && unchanged(rs.getString(2), rs.getLong(4), rs.getLong(5), now)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True if {@code now} is an entry of {@code kind} with modification time {@code mtime} and, unless a directory
     * (whose size is the filesystem's own business), size {@code size}.
     */
    private static boolean unchanged(String kind, long size, long mtime, FileStat now) {
        return now.kind().name().equals(kind) && now.mtimeNanos() == mtime && (now.isDirectory() || now.size() == size);
    }

    /**
     * The fallback where the platform gives no file identity: moves the one orphan (or row marked stale) with the
     * same size and content fingerprint as new file {@code e}, if there is exactly one; null otherwise. Reads the
     * file's first and last blocks inside the transaction, so it runs only when the scan computes fingerprints.
     */
    Moved tryMoveByFingerprint(Directory dir, WalkedEntry e, Set<Long> matched) throws SQLException {
        String fingerprint;
        try {
            fingerprint = hasher.hash(dir.path().resolve(e.name()), e.stat().size(), false).fingerprint();
        } catch (IOException unreadable) {
            return null;                        // the content pass after the listing reports what it cannot read
        }
        List<Row> candidates = new ArrayList<>();
        try (ResultSet rs = ctx.q(st.selectGoneByFingerprint).set("fingerprint", fingerprint)
                .set("size", e.stat().size()).statement.executeQuery()) {
            while (rs.next() && candidates.size() < 2) {
                candidates.add(Row.read(rs));
            }
        }
        if (candidates.size() != 1) {
            return null;                        // none, or more than one: which one moved cannot be told
        }
        Row old = candidates.get(0);
        if (matched.contains(old.id()) || !mayTakeFromItsPlace(old)) {
            return null;
        }
        return retarget(dir, e, old, ctx.locate(old.id()).path());
    }

    /**
     * True if this scan may move row {@code old} away from its place: no newer scan wrote it, it is not a top-level
     * row, and no newer scan has listed its parent (that scan saw it there, and what it saw stands).
     */
    boolean mayTakeFromItsPlace(Row old) throws SQLException {
        return old.scanId() <= scan && old.parent() != 0 && ctx.mayWriteUnder(old.parent());
    }

    /** Moves row {@code old} (now at {@code oldPath}) to entry {@code e} in {@code dir}, and records the move. */
    Moved retarget(Directory dir, WalkedEntry e, Row old, Path oldPath) throws SQLException {
        if (nameTaken(dir.id(), e.name())) {
            return null;
        }
        log.requireNotInsertedMeanwhile(old.id(), old.scanId());
        log.settleAdded();                      // the row may be one this transaction inserted and holds as added
        Path newPath = dir.path().resolve(e.name());
        Sql.Bound move = ctx.q(st.moveRow);
        ctx.bindEntry(move, dir.id(), e.name(), e.stat()).set("id", old.id());
        if (move.statement.executeUpdate() == 0) {
            return null;
        }
        log.change(old.id(), ChangeType.MOVED, old.kind(), newPath, oldPath);
        if (old.isDirectory()) {
            ctx.movedDirectory(oldPath);
        }
        long back = 0;
        if (old.orphan() && old.isDirectory()) {
            // Its descendants were reported deleted with it; they are back, at their new paths.
            back = log.subtree(old.id(), newPath.toString(), ChangeType.ADDED, false, old.goneAt());
            ctx.q(st.clearSubtreeGone).set("top", old.id()).set("since", old.goneAt()).statement.executeUpdate();
        }
        return new Moved(old.id(), back);
    }

    /**
     * True if a row already holds {@code name} in directory {@code dir}. Only a newer partial scan's trunk can have
     * put it there since this listing read the directory's rows (or, for a directory this scan found empty, read
     * none): what that scan wrote stands, so the entry's old row stays where it is for a scan of its old place.
     */
    private boolean nameTaken(long dir, String name) throws SQLException {
        try (ResultSet rs = ctx.forNames(st.childrenNamed, dir, new String[] {name}, 1).statement.executeQuery()) {
            return rs.next();
        }
    }

    /** A row {@link #tryMove} moved, and how many of its descendants came back into the index with it. */
    record Moved(long id, long descendantsBack) {
    }
}
