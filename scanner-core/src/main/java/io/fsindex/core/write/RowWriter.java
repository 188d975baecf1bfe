package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inserts the new rows of a wave of listings, by multi-row inserts or the engine's bulk loader.
 */
final class RowWriter {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;
    private final io.fsindex.core.internal.Database db;
    private final io.fsindex.core.internal.BulkLoads loads;
    private final java.sql.Connection c;
    /**
     * The last id {@link #insertNumbered} gave a row in this {@link #insertNew}, or -1 before its first statement:
     * nothing else inserts rows in between, so one read of the table's last id serves all its statements.
     */
    private long lastNumbered = -1;

    RowWriter(WriteContext ctx) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
        this.db = ctx.db();
        this.loads = ctx.loads();
        this.c = ctx.c();
    }

    /**
     * Inserts every new name of the listings, a few hundred a statement, or by the engine's bulk loader below a
     * directory this scan inserted ({@link #freshDirs}); a name a newer scan inserted meanwhile is left alone.
     * Where the insert returns the new rows' ids or the scan numbers them, each row that went in is recorded as added
     * from them; elsewhere the server records them from the rows, counted by {@link ChangeLog#inserted} or, for
     * loaded rows, here.
     */
    void insertNew(List<Listing> owned) throws SQLException {
        lastNumbered = -1;
        Listing[] rowOf = new Listing[Statements.INSERT_ROWS];
        int[] entryOf = new int[Statements.INSERT_ROWS];
        int n = 0;
        boolean loading = loads.loaderUsable();
        LongList toLoad = new LongList();      // listing << 32 | entry, in each listing's insert order
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            boolean load = l.useLoader(loading);
            for (int i : l.insertOrder()) {
                WalkedEntry e = l.entry(i);
                if (!e.isReadable() || l.hasRow(i)) {
                    continue;
                }
                l.tryInserting(i);
                ctx.countInserted();
                if (load) {
                    toLoad.add(((long) w << 32) | i);
                    continue;
                }
                rowOf[n] = l;
                entryOf[n++] = i;
                if (n == rowOf.length) {
                    insertRows(rowOf, entryOf, 0, n);
                    n = 0;
                }
            }
        }
        for (int from = 0; from < n; ) {
            int rows = Integer.highestOneBit(n - from);     // the rest as a few statements of 2^k rows
            insertRows(rowOf, entryOf, from, rows);
            from += rows;
        }
        if (toLoad.size() > 0) {
            loadRows(owned, toLoad);
        }
    }

    /**
     * Loads the new rows {@code rows} names ({@code listing << 32 | entry}), so nothing reads them back: with ids taken
     * for them first, or, where the engine numbers loaded rows itself, with the ids it tells afterwards. A directory's
     * id is then known for its claim, and each row's change is recorded from what the scan holds (and loaded into the
     * feed the same way).
     */
    void loadRows(List<Listing> owned, LongList rows) throws SQLException {
        loads.usingLoader(loadText, () -> {
            long[] ids = st.bulkLoader.newIds(c, rows.size());
            for (int k = 0; k < rows.size(); k++) {
                Listing l = owned.get((int) (rows.get(k) >>> 32));
                WalkedEntry e = l.entry((int) rows.get(k));
                FileStat stat = e.stat();
                if (ids != null) {
                    loadText.value(ids[k]);
                }
                loadText.value(l.dir().id()).value(e.name()).value(stat.kind().name())
                        .value(stat.size()).value(stat.mtimeNanos()).value(stat.linkTarget()).value(WriteContext.keyOf(stat))
                        .value(scan).value(stat.isDirectory() ? scan : 0).endRow();  // claimed, see claimSubdirectories
            }
            long loaded = st.bulkLoader.load(c, loadText.stream());
            if (loaded != rows.size()) {
                // LOAD DATA LOCAL turns a row it cannot take into a warning: never go on without every row.
                throw new SQLException("the bulk loader appended " + loaded + " of " + rows.size() + " rows");
            }
            if (ids == null && (ids = st.bulkLoader.loadedIds(c, rows.size(), scan)) == null) {
                throw new io.fsindex.core.internal.LoadRefused();
            }
            for (int k = 0; k < rows.size(); k++) {
                added(owned.get((int) (rows.get(k) >>> 32)), (int) rows.get(k), ids[k]);
            }
            ctx.countLoaded(rows.size());
        });
    }

    /** A child row's place, by which a returned row is matched to the entry it was inserted for. */
    record ChildKey(long parent, String name) {
    }

    /** Inserts the {@code n} rows from {@code from} in one statement ({@code n} a power of two). */
    private void insertRows(Listing[] rowOf, int[] entryOf, int from, int n) throws SQLException {
        if (st.numbersNewRows()) {
            insertNumbered(rowOf, entryOf, from, n);
            return;
        }
        Sql.Bound insert = ctx.q(st.insertChildren(n));
        Map<ChildKey, Integer> byName = st.insertsReturnIds() ? new HashMap<>() : null;
        for (int k = from; k < from + n; k++) {
            Listing l = rowOf[k];
            bindRow(insert, Statements.ROW_PARAMS[k - from], l, l.entry(entryOf[k]));
            if (byName != null) {
                byName.put(new ChildKey(l.dir().id(), l.entry(entryOf[k]).name()), k);
            }
        }
        insert.set("scan", scan);
        if (byName == null) {
            insert.statement.executeUpdate();
            return;
        }
        int returned = 0;
        try (ResultSet rs = insert.statement.executeQuery()) {
            while (rs.next()) {
                int k = byName.get(new ChildKey(rs.getLong(2), rs.getString(3)));
                added(rowOf[k], entryOf[k], rs.getLong(1));
                returned++;
            }
        }
        if (returned < n) {
            db.statements().requireOnlyConflictsLeftOut(insert.statement);
        }
    }

    /**
     * Inserts the {@code n} rows from {@code from} numbered on from the table's last id: all of them went in if the
     * insert counts {@code n}; otherwise a row's id tells whether it is its entry's (a row of the same name that the
     * listing did not read, such as a newer partial scan's root below a directory this scan inserted, left it out).
     */
    private void insertNumbered(Listing[] rowOf, int[] entryOf, int from, int n) throws SQLException {
        if (lastNumbered < 0) {
            try (ResultSet rs = ctx.q(st.lastFileId).statement.executeQuery()) {
                rs.next();
                lastNumbered = rs.getLong(1);
            }
        }
        long last = lastNumbered;
        lastNumbered += n;                  // a conflicting row's id stays unused
        Sql.Bound insert = ctx.q(st.insertChildren(n));
        for (int k = from; k < from + n; k++) {
            String[] names = Statements.ROW_PARAMS[k - from];
            bindRow(insert, names, rowOf[k], rowOf[k].entry(entryOf[k]));
            insert.set(names[8], last + 1 + k - from);
        }
        boolean all = insert.set("scan", scan).statement.executeUpdate() == n;
        for (int k = from; k < from + n; k++) {
            Listing l = rowOf[k];
            long id = last + 1 + k - from;
            Row now = all ? null : ctx.find(l.dir().id(), l.entry(entryOf[k]).name());
            if (all || now != null && now.id() == id) {
                added(l, entryOf[k], id);
            }
        }
    }

    private void bindRow(Sql.Bound insert, String[] names, Listing l, WalkedEntry e) throws SQLException {
        insert.set(names[0], l.dir().id()).set(names[1], e.name()).set(names[2], e.stat().kind().name())
                .set(names[3], e.stat().size()).set(names[4], e.stat().mtimeNanos())
                .set(names[5], e.stat().linkTarget()).set(names[6], WriteContext.keyOf(e.stat()))
                .set(names[7], e.stat().isDirectory() ? scan : 0L);    // claimed, see claimSubdirectories
    }

    /** Entry {@code at} of {@code l} went in as row {@code id}: recorded, and its change logged. */
    private void added(Listing l, int at, long id) throws SQLException {
        WalkedEntry e = l.entry(at);
        l.inserted(at, id);
        log.changeIn(id, ChangeType.ADDED, e.stat().kind().name(), l.dirPath(), e.name(), null);
    }

    final io.fsindex.core.internal.LoadText loadText = new io.fsindex.core.internal.LoadText();

    /**
     * Records every row this transaction inserted below the listings' directories as added, and sets each
     * listing's {@code inserted}: counts them per directory now, and writes them (numbered by directory id and
     * then row id) once the head is locked. Only this scan's rows count: a newer scan may meanwhile have
     * inserted its own root below one of these directories, and recorded it itself. A listing whose rows the
     * directory cannot tell ({@link Listing#addedRowsNeedNames}) is counted and recorded by its names instead.
     */
    void recordInserted(List<Listing> owned) throws SQLException {
        List<Listing> byDir = new ArrayList<>();
        for (Listing l : owned) {
            if (l.addedRowsNeedNames()) {
                recordInsertedByName(l);
            } else {
                byDir.add(l);
            }
        }
        if (byDir.isEmpty()) {
            return;
        }
        byDir.sort(Comparator.comparingLong(l -> l.dir().id()));
        Map<Long, Long> counts = new HashMap<>();
        long[] dirIds = byDir.stream().mapToLong(l -> l.dir().id()).toArray();
        try (ResultSet rs = ctx.forIds(st.insertedCounts, dirIds, dirIds.length).set("floor", log.floor())
                .set("scan", scan).statement.executeQuery()) {
            while (rs.next()) {
                counts.put(rs.getLong(1), rs.getLong(2));
            }
        }
        List<Listing> withRows = new ArrayList<>();
        for (Listing l : byDir) {
            l.setInserted(counts.getOrDefault(l.dir().id(), 0L));
            if (l.insertedCount() > 0) {
                withRows.add(l);
            }
        }
        if (withRows.isEmpty()) {
            return;
        }
        log.added(withRows.stream().mapToLong(l -> l.dir().id()).toArray(),
                withRows.stream().map(Listing::dirPath).toArray(String[]::new),
                withRows.stream().mapToLong(Listing::insertedCount).toArray(), null);
    }

    /**
     * Records the rows listing {@code l} inserted as added, found by the names it tried to insert: probing its own
     * names is cheap where going through every row below the directory would cost a huge directory's every row per
     * part, and a row moved here that this transaction inserted elsewhere is no row of this listing.
     */
    private void recordInsertedByName(Listing l) throws SQLException {
        long[] count = {0};
        ConnectionStatements.inPieces(l.triedNames(), st.insertedNamed, (names, n) -> {
            try (ResultSet rs = ctx.forNames(st.insertedNamed, l.dir().id(), names, n).set("floor", log.floor())
                    .set("scan", scan).statement.executeQuery()) {
                rs.next();
                count[0] += rs.getLong(1);
            }
        });
        l.setInserted(count[0]);
        if (count[0] > 0) {
            log.added(new long[] {l.dir().id()}, new String[] {l.dirPath()}, new long[] {count[0]}, l.triedNames());
        }
    }
}
