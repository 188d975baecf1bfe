package io.fsindex.core.write;

import io.fsindex.api.ChangeType;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.feed.ChangeLog;
import io.fsindex.core.internal.ConnectionStatements;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the changed, stale-marked and revived rows of a wave of listings, and records what each update did.
 */
final class RowUpdater {
    private final WriteContext ctx;
    private final Statements st;
    private final long scan;
    private final ChangeLog log;

    RowUpdater(WriteContext ctx) {
        this.ctx = ctx;
        this.st = ctx.st();
        this.scan = ctx.scan();
        this.log = ctx.log();
    }

    /**
     * Writes the changed, stale-marked and revived rows of the listings, in two batches: the rows read in the index,
     * each written only if it still is, and the orphans brought back.
     */
    void updateChanged(List<Listing> owned) throws SQLException {
        List<Long> goneSinceRead = new ArrayList<>();
        Sql.Bound live = ctx.q(st.updateLiveChild);
        BatchRunner liveUpdates = new BatchRunner(live.statement, (tag, count) -> {
            if (count == 0) {
                goneSinceRead.add(tag);
            } else {
                recordUpdated(owned, tag);
            }
        });
        Sql.Bound revive = ctx.q(st.updateChild);
        BatchRunner revivals = new BatchRunner(revive.statement, (tag, count) -> {
            if (count == 0) {
                reinsert(owned, tag);
            } else {
                recordUpdated(owned, tag);
            }
        });
        for (int w = 0; w < owned.size(); w++) {
            Listing l = owned.get(w);
            for (int i = 0; i < l.size(); i++) {
                if (l.needsUpdate(i)) {
                    WalkedEntry e = l.entry(i);
                    boolean revival = l.isRevival(i);
                    ctx.bindEntry(revival ? revive : live, 0, e.name(), e.stat()).set("id", l.idAt(i));
                    (revival ? revivals : liveUpdates).add(((long) w << 32) | i);
                }
            }
        }
        liveUpdates.flush();
        revivals.flush();
        for (long tag : goneSinceRead) {
            reviveGoneSinceRead(owned, tag);
        }
    }

    /** Records what the update of entry {@code tag} (listing and entry, as {@link #updateChanged} tags them) did. */
    void recordUpdated(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        ChangeType type = l.updated(at);
        if (type != null) {
            log.change(l.idAt(at), type, l.entry(at).stat().kind().name(), l.pathOf(at), null);
        }
    }

    /**
     * Entry {@code tag}'s row was read in the index but had left it when written: an older scan whose stale mark it
     * had swept it meanwhile and reported it deleted. It exists (this scan has just listed it), so it comes back as
     * added, under its id; or, if it is gone altogether or a newer scan has taken it, as {@link #reinsert} says.
     */
    void reviveGoneSinceRead(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        WalkedEntry e = l.entry(at);
        Row now = ctx.find(l.dir().id(), e.name());
        if (now != null && now.orphan() && now.scanId() <= scan) {
            Sql.Bound revive = ctx.q(st.updateChild);
            if (ctx.bindEntry(revive, 0, e.name(), e.stat()).set("id", now.id()).statement.executeUpdate() == 1) {
                l.revivedAs(at, now.id());
                recordUpdated(owned, tag);
                return;
            }
        }
        reinsert(owned, tag);
    }

    /**
     * Entry {@code tag}'s row is gone since it was read (deleted with an orphaned subtree, say) or taken by a newer
     * scan: the upsert re-inserts the first (with a new id, read back before any claim) and leaves the second.
     */
    void reinsert(List<Listing> owned, long tag) throws SQLException {
        Listing l = owned.get((int) (tag >>> 32));
        int at = (int) tag;
        WalkedEntry e = l.entry(at);
        l.reinsertAt(at);
        ctx.bindEntry(ctx.q(st.upsertChild), l.dir().id(), e.name(), e.stat()).statement.executeUpdate();
        if (st.knowsNewIds()) {
            recordReinserted(l, at);
        }
    }

    /**
     * Records entry {@code at}'s row as added if the upsert just inserted it: where the scan knows new rows' ids
     * as it inserts them, nothing reads this transaction's new rows back, so a re-inserted row is recorded here.
     */
    void recordReinserted(Listing l, int at) throws SQLException {
        WalkedEntry e = l.entry(at);
        Row now = ctx.find(l.dir().id(), e.name());
        if (now != null && now.scanId() == scan && now.id() > log.floor()) {
            l.reinserted();
            log.changeIn(now.id(), ChangeType.ADDED, now.kind(), l.dirPath(), e.name(), null);
        }
    }

    /**
     * Adds rows to a JDBC batch and runs it every {@link #ConnectionStatements.BATCH_ROWS} rows, handing each row's update count to
     * {@code onCount} with the row's tag; so a huge directory's batch never holds all its rows.
     */
    static final class BatchRunner {
        interface OnCount {
            void accept(long tag, int count) throws SQLException;
        }

        final java.sql.PreparedStatement statement;
        final OnCount onCount;
        final long[] tags = new long[ConnectionStatements.BATCH_ROWS];
        int size;

        BatchRunner(java.sql.PreparedStatement statement, OnCount onCount) {
            this.statement = statement;
            this.onCount = onCount;
        }

        void add(long tag) throws SQLException {
            statement.addBatch();
            tags[size++] = tag;
            if (size == ConnectionStatements.BATCH_ROWS) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (size == 0) {
                return;
            }
            int[] counts = statement.executeBatch();
            int batch = size;
            size = 0;
            for (int b = 0; b < counts.length && b < batch; b++) {
                onCount.accept(tags[b], counts[b]);
            }
        }
    }
}
