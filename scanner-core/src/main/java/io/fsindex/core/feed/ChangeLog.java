package io.fsindex.core.feed;

import io.fsindex.api.ChangeType;
import io.fsindex.api.FileKind;
import io.fsindex.api.ScanListener;
import io.fsindex.core.internal.BulkLoads;
import io.fsindex.core.internal.LoadText;
import io.fsindex.core.internal.RowsAboveFloor;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The change feed as this scan writes it. A write transaction numbers its changes on from the feed head's
 * {@code last_seq} and moves the head on before committing, holding the head's row lock from reading it until
 * the commit, so numbers are handed out in commit order (see {@link io.fsindex.core.spi.DialectStatements#lockFeed}).
 *
 * <p>The head is locked as late as possible: the changes a transaction makes are held (in memory, or as "the rows
 * this wave inserted" for added entries) and written only at the end, after all its other writes, so scans'
 * transactions write their rows concurrently and take turns only for writing the feed and committing. While it
 * holds the head, a transaction writes nothing but the feed, so it never waits for another writer's locks and no
 * deadlock can involve the head. A transaction that changes more entries than {@link #heldChanges} locks the head
 * at that point instead of holding more in memory, and one about to move or delete rows it may have inserted
 * itself locks it first ({@link #settleAdded}); a deadlock either may then meet is detected and retried. One
 * that changes nothing never locks it.
 */
public final class ChangeLog {
    private final ConnectionStatements sql;
    private final BulkLoads loads;
    private final Statements st;
    private final Connection c;
    private final long scan;
    private final ScanListener listener;
    /**
     * How many changes a transaction holds in memory before it locks the feed head and writes them as they come:
     * twice a part of a huge directory's listing (the scan's part size), so a group's or a part's changes are all
     * held (a few MiB at most) and only a sweep of a larger subtree takes the head early. Less would make a
     * transaction whose new rows' ids are known (SQLite, MariaDB, PostgreSQL's loaded rows) take the head half way
     * through its rows and keep other scans' transactions waiting while it writes the rest.
     */
    private final int heldChanges;

    private final OtherScansMoves othersMoves;

    public ChangeLog(ConnectionStatements sql, BulkLoads loads, Statements st, Connection c, long scan,
                     ScanListener listener, int heldChanges) throws SQLException {
        this.othersMoves = new OtherScansMoves(sql, st, scan);
        this.sql = sql;
        this.loads = loads;
        this.st = st;
        this.c = c;
        this.scan = scan;
        this.listener = listener;
        this.heldChanges = heldChanges;
    }

    /** Into how many steps of the feed's capacity pruning its directory rows is spread (see {@link #prune}). */
    private static final long DIR_PRUNE_STEPS = 8;

    /** The feed's last number when the head was locked, and the last one handed out so far. */
    private long first, last;
    /** The largest row id when the transaction began: this scan's rows above it were inserted by it. */
    private long floor;
    /** When the transaction began, the time its changes are stamped with. */
    private long now;
    private int pending;
    /**
     * Whether this transaction sends its change rows by the engine's bulk loader (as text in {@link
     * #changeText}) instead of as batched inserts: where there is one, unless a load has failed in this scan.
     */
    private boolean loadsChanges;
    private final LoadText changeText = new LoadText();
    /** Whether this transaction holds the head's lock (and writes its changes as they come). */
    private boolean locked;
    /** Until then, the changes in the order they were made: {@link Held} rows and {@link AddedRows}. */
    private final List<Object> held = new ArrayList<>();
    private int heldRows;
    private boolean heldAdded;

    /** One change held until the head is locked. */
    private record Held(long id, ChangeType type, String kind, String dirPath, String name, String previous) {
    }

    /**
     * The rows a wave inserted below its directories (ids ascending), held until the head is locked; for one
     * part of a listing, {@code names} are the names it tried to insert, by which its rows are found.
     */
    private record AddedRows(long[] dirIds, String[] dirPaths, long[] counts, List<String> names) {
    }

    public void open() throws SQLException {
        try (ResultSet rs = sql.q(st.maxFileId).statement.executeQuery()) {
            rs.next();
            floor = rs.getLong(1);
        }
        now = System.currentTimeMillis();
        first = last = 0;
        locked = false;
        held.clear();
        heldRows = 0;
        heldAdded = false;
        pending = 0;
        pendingDirs = 0;
        dirs.clear();
        loadsChanges = loads.loaderUsable();
        changeText.clear();
        sql.q(st.insertChange);                 // drops a batch a failed attempt left behind
        sql.q(st.insertChangeDir);
    }

    /**
     * Throws {@link RowsAboveFloor} for row {@code id}, written by scan {@code scanId}, if another transaction
     * inserted it after this one began: this transaction is about to write it, and would then take it for one of
     * its own new rows (above {@link #floor}, its scan's) and record it added. A row a newer scan wrote is left
     * alone anyway, and one this transaction inserted is its own.
     */
    public void requireNotInsertedMeanwhile(long id, long scanId) throws RowsAboveFloor {
        if (id > floor && scanId < scan) {
            throw new RowsAboveFloor(id);
        }
    }

    /**
     * Writes the held added rows now, locking the head, if any are held: called before this transaction moves
     * or deletes rows it may itself have inserted, since held added rows are read back only when written (a row
     * moved or deleted meanwhile would be recorded at its new place, or not at all).
     */
    public void settleAdded() throws SQLException {
        if (!locked && heldAdded) {
            lock();
        }
    }

    /** When the transaction began, the time its changes are stamped with. */
    public long now() {
        return now;
    }

    /** The largest row id when the transaction began: this scan's rows above it were inserted by it. */
    public long floor() {
        return floor;
    }

    /** Locks the head, reads where numbering goes on, and writes the changes held so far. */
    private void lock() throws SQLException {
        try (ResultSet rs = sql.q(st.lockFeed).statement.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("the change feed's head row is missing from " + st.t.feedName());
            }
            first = last = rs.getLong(1);
        }
        othersMoves.checkUpTo(first);
        locked = true;
        for (Object change : held) {
            if (change instanceof Held h) {
                write(h.id(), h.type(), h.kind(), h.dirPath(), h.name(), h.previous());
            } else {
                write((AddedRows) change);
            }
        }
        held.clear();
        heldRows = 0;
        heldAdded = false;
    }

    /** The change_dirs rows this transaction wrote, by path: each directory's path is written once. */
    private final Map<String, Long> dirs = new HashMap<>();
    private int pendingDirs;

    /**
     * The change_dirs row for {@code dirPath}, written (numbered {@code seq}, the change about to refer to it)
     * if this transaction has none yet.
     */
    private long dirRef(String dirPath, long seq) throws SQLException {
        Long id = dirs.get(dirPath);
        return id != null ? id : newDirRef(dirPath, seq);
    }

    /** Writes a change_dirs row numbered {@code seq} for {@code dirPath}; later changes there refer to it. */
    private long newDirRef(String dirPath, long seq) throws SQLException {
        dirs.put(dirPath, seq);
        sql.current(st.insertChangeDir).set("id", seq).set("path", dirPath).statement.addBatch();
        if (++pendingDirs == ConnectionStatements.BATCH_ROWS) {
            flush();
        }
        return seq;
    }

    /** Records one change of the entry at {@code path} ({@code previous}: where a moved entry was). */
    public void change(long id, ChangeType type, String kind, Path path, Path previous) throws SQLException {
        Path dir = path.getParent();
        changeIn(id, type, kind, dir == null ? null : dir.toString(),
                dir == null ? path.toString() : path.getFileName().toString(),
                previous == null ? null : previous.toString());
    }

    /** Records one change of entry {@code name} in the directory at {@code dirPath} (null: a top-level one). */
    public void changeIn(long id, ChangeType type, String kind, String dirPath, String name, String previous)
            throws SQLException {
        if (locked) {
            write(id, type, kind, dirPath, name, previous);
            return;
        }
        held.add(new Held(id, type, kind, dirPath, name, previous));
        if (++heldRows == heldChanges) {
            lock();                         // no more in memory: write from here on as changes come
        }
    }

    private void write(long id, ChangeType type, String kind, String dirPath, String name, String previous)
            throws SQLException {
        long seq = ++last;
        Long cdir = dirPath == null ? null : dirRef(dirPath, seq);    // may flush: before this row is started
        if (loadsChanges) {
            changeText.value(seq).value(id).value(type.name()).value(kind).value(cdir).value(name)
                    .value(previous).value(scan).value(now).endRow();
        } else {
            Sql.Bound insert = sql.current(st.insertChange);
            insert.set("seq", seq).set("entry", id).set("type", type.name()).set("kind", kind)
                    .set("name", name).set("previous", previous).set("scan", scan).set("now", now)
                    .set("cdir", cdir).statement.addBatch();
        }
        if (++pending == ConnectionStatements.BATCH_ROWS) {
            flush();
        }
    }

    /**
     * Records as added the rows this transaction inserted below directories {@code dirIds} (at {@code dirPaths}),
     * {@code counts} of them each, found by the directory (numbered by directory id and then row id) or, for one part
     * of a listing, by the {@code names} it tried to insert; written once the head is locked.
     */
    public void added(long[] dirIds, String[] dirPaths, long[] counts, List<String> names) throws SQLException {
        AddedRows added = new AddedRows(dirIds, dirPaths, counts, names);
        if (locked) {
            write(added);
        } else {
            held.add(added);
            heldAdded = true;
        }
    }

    private void write(AddedRows added) throws SQLException {
        if (added.names() != null) {
            writeByName(added);
            return;
        }
        long next = last + 1;
        for (int i = 0; i < added.dirIds().length; i++) {
            newDirRef(added.dirPaths()[i], next);  // numbered by the first change referring to it
            next += added.counts()[i];
        }
        int count = sql.forIds(st.recordInserted, added.dirIds(), added.dirIds().length).set("seq", last)
                .set("floor", floor).set("scan", scan).set("now", now).statement.executeUpdate();
        if (count != next - last - 1) {
            throw new SQLException("recorded " + count + " added rows where " + (next - last - 1)
                    + " were counted");
        }
        last += count;
    }

    /** Writes the added rows of one part of a listing, found by their names. */
    private void writeByName(AddedRows added) throws SQLException {
        long dir = added.dirIds()[0];
        long cdir = newDirRef(added.dirPaths()[0], last + 1);
        long expected = added.counts()[0];
        long start = last;
        ConnectionStatements.inPieces(added.names(), st.recordInsertedNamed, (names, n) -> {
            last += sql.forNames(st.recordInsertedNamed, dir, names, n).set("seq", last).set("cdir", cdir)
                    .set("floor", floor).set("scan", scan).set("now", now).statement.executeUpdate();
        });
        if (last - start != expected) {
            throw new SQLException("recorded " + (last - start) + " added rows where " + expected
                    + " were counted");
        }
    }

    /**
     * Records a change of {@code type} for rows of the subtree below row {@code top} (at {@code topPath}), top
     * included if asked: with {@code goneSince} 0 the rows in the index, otherwise the orphans made at or after
     * {@code goneSince}. Returns how many it recorded.
     */
    public long subtree(long top, String topPath, ChangeType type, boolean includeTop, long goneSince)
            throws SQLException {
        Map<Long, String> paths = new HashMap<>();
        long count = 0;
        List<SubtreeRow> rows = new ArrayList<>();
        try (ResultSet rs = sql.q(st.subtreeRows).set("top", top).statement.executeQuery()) {
            while (rs.next()) {
                rows.add(SubtreeRow.read(rs));
            }
        }
        for (SubtreeRow r : rows) {
            long id = r.id();
            String kind = r.kind();
            long goneAt = r.goneAt();
            boolean isTop = r.depth() == 0;
            String parent = isTop ? null : paths.get(r.parent());
            String path = isTop ? topPath : join(parent, r.name());
            if (path != null && FileKind.DIRECTORY.name().equals(kind)) {
                paths.put(id, path);
            }
            boolean wanted = goneSince == 0 ? goneAt == 0 : goneAt >= goneSince;
            if (path != null && wanted && (includeTop || !isTop)) {
                if (isTop) {
                    change(id, type, kind, Path.of(topPath), null);
                } else {
                    changeIn(id, type, kind, parent, r.name(), null);
                }
                count++;
            }
        }
        return count;
    }

    /** One row of {@code subtreeRows}: a row of the subtree and its depth below the top (0 for the top). */
    private record SubtreeRow(long id, long parent, String name, String kind, long goneAt, int depth) {
        static SubtreeRow read(ResultSet rs) throws SQLException {
            return new SubtreeRow(rs.getLong("id"), rs.getLong("parent"), rs.getString("name"), rs.getString("kind"),
                    rs.getLong("gone_at"), rs.getInt("depth"));
        }
    }

    public static String join(String parent, String name) {
        return parent == null ? null : parent.endsWith("/") ? parent + name : parent + "/" + name;
    }

    private void flush() throws SQLException {
        if (pendingDirs > 0) {
            sql.current(st.insertChangeDir).statement.executeBatch();
            pendingDirs = 0;
        }
        if (pending > 0) {
            if (loadsChanges) {
                loadChanges();
            } else {
                sql.current(st.insertChange).statement.executeBatch();
            }
            pending = 0;
        }
    }

    /** Sends {@link #changeText} to the bulk loader. */
    private void loadChanges() throws SQLException {
        loads.usingLoader(changeText, () -> st.bulkLoader.loadChanges(c, changeText.stream()));
    }

    /** Writes what is held or still batched and moves the head on, still inside the transaction. */
    public void close() throws SQLException {
        if (!locked && !held.isEmpty()) {
            lock();
        }
        flush();
        if (last > first) {
            sql.q(st.advanceFeed).set("seq", last).statement.executeUpdate();
        }
    }

    /**
     * Drops the oldest changes beyond {@code capacity}, inside the transaction holding the head, and, each time
     * the pruned changes pass another {@link #DIR_PRUNE_STEPS}th of the capacity, the directory rows no change
     * names any more. Finding those reads every remaining change (nothing indexes a change's directory: the index
     * would cost every change row), so it is not done on every prune; until it is, the directory rows of fewer
     * than that many pruned changes stay behind, named by no change and never read.
     */
    public void prune(long capacity) throws SQLException {
        if (!locked) {
            lock();
        }
        flush();
        long upTo = last - capacity;
        if (upTo > 0 && sql.q(st.pruneFeed).set("seq", upTo).statement.executeUpdate() > 0) {
            // Changes are numbered without gaps and dropped only here, oldest first: the ones dropped now are
            // those after the previous prune's bound.
            long before = upTo - sql.q(st.pruneChanges).set("seq", upTo).statement.executeUpdate();
            long step = Math.max(1, capacity / DIR_PRUNE_STEPS);
            if (before / step != upTo / step) {
                sql.q(st.pruneChangeDirs).set("seq", upTo).statement.executeUpdate();
            }
        }
    }

    /** The transaction committed: its changes are this scan's own, and need no look for other scans' moves. */
    public void committed() {
        othersMoves.committedUpTo(last);
    }

    /**
     * True once another scan has been seen moving a directory while this one runs: from then on each listing's
     * directory is checked against the index before its changes are recorded.
     */
    public boolean otherScansMoveDirectories() {
        return othersMoves.seen();
    }

    /** Hands the committed transaction's changes to the listener, read back from the feed. */
    public void deliver() throws SQLException {
        if (last == first) {
            return;
        }
        FeedReader.read(sql.q(st.readChanges), first, last, listener::changed);
    }
}
