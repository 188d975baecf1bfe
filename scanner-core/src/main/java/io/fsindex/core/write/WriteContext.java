package io.fsindex.core.write;

import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.FsIndexException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.Walker;
import io.fsindex.core.content.ContentHasher;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.BulkLoads;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the write protocol's classes share for one scan: its connection, statements, change feed and bulk loader, the
 * transaction every write runs in ({@link #write}), the row lookups and bindings they all use, and the counts the
 * scan's result and its statistics refresh are made of.
 */
final class WriteContext {
    private final Database db;
    private final Statements st;
    private final Connection c;
    private final long scan;
    private final Walker walker;
    private final ConnectionStatements sql;
    private final BulkLoads loads;
    private final ChangeLog log;
    private final boolean deliverChanges;
    /** False while the index was empty when the scan started: no row can then be a moved entry's old row. */
    private final boolean movesPossible;
    /** The largest id when the scan started: ids are never reused, so at least as many rows as the table held. */
    private final long maxIdAtStart;
    /** Whether a file without a platform identity may be recognised as moved by its content fingerprint. */
    private final boolean fingerprintMoves;
    private final ContentHasher hasher = new ContentHasher();
    /**
     * Directories this scan inserted and claimed in one transaction and has not listed yet: no older scan may write
     * below them (this scan's claim is newer), and a newer scan that claims one owns its listing instead, so the only
     * rows that can be below one when this scan lists it are a newer partial scan's (the trunk down to its root, which
     * it writes without claiming), which this scan must leave alone anyway. So their listings read no existing rows,
     * and their new children go in by the engine's bulk loader where it can be used; a load that meets such a row
     * fails and the transaction is retried with inserts ({@link io.fsindex.core.internal.LoadRefused}); without a
     * loader they are inserted with conflict handling, which leaves such a row alone. A directory leaves when it is
     * listed, so the set is as big as the walk's frontier.
     */
    private final Set<Long> freshDirs = new HashSet<>();
    /** Rows sent through the bulk loader, for tests that must know it was used. */
    private long loadedRows;
    /** Rows this scan tried to insert, to decide whether the planner's statistics need refreshing at the end. */
    private long insertedRows;
    /** Rows removed before the sweep (contents of directories this scan found replaced by files), for the result. */
    private long removedEarly;
    private long removedInTransaction;
    /** The paths directories this scan moved have left (see {@link #current}). */
    private final Set<Path> movedFrom = new HashSet<>();

    WriteContext(Database db, Statements st, Connection c, long scan, Walker walker, ScanListener listener,
                 boolean deliverChanges, boolean fingerprintMoves, int heldChanges)
            throws SQLException {
        this.db = db;
        this.st = st;
        this.c = c;
        this.scan = scan;
        this.walker = walker;
        this.sql = new ConnectionStatements(c);
        this.loads = new BulkLoads(db, st, c, scan);
        this.log = new ChangeLog(sql, loads, st, c, scan, listener, heldChanges);
        this.deliverChanges = deliverChanges;
        try (ResultSet rs = sql.q(st.maxFileId).statement.executeQuery()) {
            maxIdAtStart = rs.next() ? rs.getLong(1) : 0;
        }
        this.movesPossible = maxIdAtStart > 0;
        this.fingerprintMoves = fingerprintMoves;
    }

    Database db() {
        return db;
    }

    Statements st() {
        return st;
    }

    Connection c() {
        return c;
    }

    long scan() {
        return scan;
    }

    ChangeLog log() {
        return log;
    }

    BulkLoads loads() {
        return loads;
    }

    ConnectionStatements sql() {
        return sql;
    }

    long maxIdAtStart() {
        return maxIdAtStart;
    }

    boolean movesPossible() {
        return movesPossible;
    }

    boolean fingerprintMoves() {
        return fingerprintMoves;
    }

    ContentHasher hasher() {
        return hasher;
    }

    Set<Long> freshDirs() {
        return freshDirs;
    }

    /** The statement prepared on this scan's connection, with no batch left over from a failed attempt. */
    Sql.Bound q(Sql select) throws SQLException {
        return sql.q(select);
    }

    /** Statement {@code sql} for {@code count} directory ids, with the ids bound. */
    Sql.Bound forIds(Statements.ForIds<Long> select, long[] ids, int count) throws SQLException {
        return sql.forIds(select, ids, count);
    }

    /** Statement {@code sql} for directory {@code dir} and {@code count} names, with both bound. */
    Sql.Bound forNames(Statements.ForIds<String> select, long dir, String[] names, int count) throws SQLException {
        return sql.forNames(select, dir, names, count);
    }

    void countInserted() {
        insertedRows++;
    }

    void countLoaded(long rows) {
        loadedRows += rows;
    }

    void countRemoved(long rows) {
        removedInTransaction += rows;
    }

    long loadedRows() {
        return loadedRows;
    }

    long insertedRows() {
        return insertedRows;
    }

    long removedEarly() {
        return removedEarly;
    }

    /**
     * True if this scan may write the children of directory {@code dir}: its row exists and no newer scan has listed
     * it. On PostgreSQL and InnoDB the read share-locks the row until the transaction ends, so no newer scan can claim
     * the directory before this transaction's writes below it are committed.
     */
    boolean mayWriteUnder(long dir) throws SQLException {
        try (ResultSet rs = forIds(st.owners, new long[] {dir}, 1).statement.executeQuery()) {
            return rs.next() && rs.getLong(2) <= scan;
        }
    }

    Row find(long parent, String name) throws SQLException {
        return find(parent == 0 ? st.selectTopLevel : st.selectChild, parent, name);
    }

    /**
     * {@link #find} for a row this transaction is about to write, locked where writers run at once: an older scan's
     * sweep taking it out meanwhile is waited for and seen, so what the write did is recorded against what the row
     * was when written (a row the sweep took out comes back as added, not as unchanged or modified).
     */
    Row findForWrite(long parent, String name) throws SQLException {
        return find(parent == 0 ? st.selectTopLevelForWrite : st.selectChildForWrite, parent, name);
    }

    Row find(Sql select, long parent, String name) throws SQLException {
        Sql.Bound find = sql.q(select);
        find.set("name", name);
        if (parent != 0) {
            find.set("parent", parent);
        }
        try (ResultSet rs = find.statement.executeQuery()) {
            return rs.next() ? Row.read(rs) : null;
        }
    }

    /**
     * The identity a move keeps, as stored in {@code file_key}: on Unix the inode number with the device in the high
     * bits, so rows inserted in walk order go to the index nearly in order (a hash would scatter them and make a
     * cold scan's index writes random); for another platform's key, a 64-bit FNV-1a hash of it. Null where the
     * platform gives none. Either way a candidate is checked on kind, mtime and size besides.
     */
    static Long keyOf(FileStat stat) {
        if (stat == null || stat.fileKey() == null) {
            return null;
        }
        String key = stat.fileKey().toString();
        int dev = key.startsWith("(dev=") ? 5 : -1;
        int ino = key.indexOf(",ino=");
        if (dev > 0 && ino > dev && key.endsWith(")")) {
            try {
                long device = Long.parseUnsignedLong(key, dev, ino, 16);
                long inode = Long.parseUnsignedLong(key, ino + 5, key.length() - 1, 10);
                return inode ^ (device << 40);
            } catch (NumberFormatException notUnix) {
                // fall through to the hash
            }
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * True if something still exists at {@code path}. Only an entry that has disappeared from its old path moves: a
     * hard link's other name still exists, and a file replaced by another under the same name keeps that name's row.
     */
    boolean stillThere(Path path) {
        try {
            walker.stat(path);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return true;                        // cannot tell: leave the row where it is
        }
    }

    /** What is at {@code path} now (not following a link); null if nothing is, or it cannot be read. */
    FileStat statIfThere(Path path) {
        try {
            return walker.stat(path);
        } catch (IOException e) {
            return null;
        }
    }

    /** Notes that this scan moved a directory away from {@code from} (see {@link #current}). */
    void movedDirectory(Path from) {
        movedFrom.add(from);
    }

    /**
     * {@code dir} as the index has it now, if the walker listed it at a path at or below one a directory this scan
     * moved has left, or at all once another scan has been seen moving directories: the changes recorded for its
     * entries, and the paths its subdirectories are listed at, must follow the move, or replaying the feed would put
     * its new entries at the old place. Asks the index only then.
     */
    Directory current(Directory dir) throws SQLException {
        if (!log.otherScansMoveDirectories() && !belowAMovedDirectory(dir.path())) {
            return dir;
        }
        Located now = locate(dir.id());
        if (now.path() == null || now.path().equals(dir.path()) || now.path().getFileName() == null) {
            return dir;
        }
        List<Long> ids = now.ids();
        return new Directory(dir.id(), ids.size() > 1 ? ids.get(ids.size() - 2) : 0,
                now.path().getFileName().toString(), now.path());
    }

    /** Whether {@code path} is a path a moved directory left, or below one: its ancestors looked up, not every move. */
    private boolean belowAMovedDirectory(Path path) {
        if (movedFrom.isEmpty()) {
            return false;
        }
        for (Path at = path; at != null; at = at.getParent()) {
            if (movedFrom.contains(at)) {
                return true;
            }
        }
        return false;
    }

    /** A row's path and the ids from the top of the index down to it. */
    record Located(Path path, List<Long> ids) {
    }

    /** Finds row {@code id}'s path and ancestors from the rows above it (its old place, for a row being moved). */
    Located locate(long id) throws SQLException {
        List<Long> ids = new ArrayList<>();
        Path path = null;
        try (ResultSet rs = sql.q(st.ancestors).set("id", id).statement.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
                String name = rs.getString(2);
                path = path == null ? Path.of(name) : path.resolve(name);
            }
        }
        return new Located(path, ids);
    }

    /** Runs {@code q} once per id, batched {@link ConnectionStatements#BATCH_ROWS} at a time. */
    void executeInChunks(Sql.Bound q, LongList ids, String key) throws SQLException {
        for (int i = 0; i < ids.size(); i++) {
            q.set(key, ids.get(i)).set("scan", scan).statement.addBatch();
            if ((i + 1) % ConnectionStatements.BATCH_ROWS == 0 || i + 1 == ids.size()) {
                q.statement.executeBatch();
            }
        }
    }

    Sql.Bound bindEntry(Sql.Bound q, long parent, String name, FileStat stat) throws SQLException {
        if (parent != 0) {
            q.set("parent", parent);
        }
        if (q.has("name")) {
            q.set("name", name);
        }
        if (q.has("key")) {
            q.set("key", keyOf(stat));
        }
        return q.set("kind", stat.kind().name()).set("size", stat.size())
                .set("mtime", stat.mtimeNanos()).set("link", stat.linkTarget()).set("scan", scan);
    }

    <T> T write(Database.Work<T> work) {
        return write(work, Integer.MAX_VALUE);
    }

    /**
     * {@link #write(Database.Work)}, giving up with {@link Database.KeepsConflicting} once the transaction has
     * conflicted {@code conflicts} times.
     */
    <T> T write(Database.Work<T> work, int conflicts) {
        try {
            T result = db.write(c, conn -> {
                removedInTransaction = 0;   // a retried transaction starts its count again
                log.open();
                T r = work.run(conn);
                log.close();
                return r;
            }, conflicts);
            removedEarly += removedInTransaction;
            log.committed();
            if (deliverChanges) {
                log.deliver();
            }
            return result;
        } catch (BlockedDeletion e) {
            throw e.explain(c, db, st.t, "scan " + scan);
        } catch (SQLException e) {
            throw new FsIndexException(db.dialect().name() + " error in scan " + scan + ": " + e.getMessage(), e);
        }
    }
}
