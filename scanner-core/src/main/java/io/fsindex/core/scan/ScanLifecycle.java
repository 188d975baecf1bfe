package io.fsindex.core.scan;

import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Lazy;
import io.fsindex.core.internal.Sql;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.internal.TableNames;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.param;

import io.fsindex.api.ScanRecord;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.FsTables;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scan's row in the scans table, from its start to its outcome, and the proof of life in between: while a scan
 * runs, its {@code heartbeat_at} is refreshed every quarter of the lease from a connection of its own (one short
 * transaction for all of this index's running scans, and none while no scan runs), so neither the scan's long
 * transactions nor a dead scan connection can hide a live process. A {@code RUNNING} row whose heartbeat is older than
 * the lease belongs to a scan whose process or connection is gone: a scan's start records such rows
 * {@code ABANDONED}, and reads show them so before anyone has recorded it.
 */
public final class ScanLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(ScanLifecycle.class);

    static final String ABANDONED = "ABANDONED";

    private final Database db;
    private final TableNames t;
    private final Duration lease;
    /** Rendered when a scan first starts: reading the scans ({@link #recent}) needs none of them. */
    private final Lazy<Writes> writes;
    /** Where new ids come from: the counter row, or (null) the engine's allocator. */
    private final OrderedScanIds orderedIds;
    private final Set<Long> beating = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService beats;

    /**
     * @param names  the table names
     * @param tables the same tables as jOOQ objects, asked for when a scan first writes its row
     * @param orderedIds whether new ids come from the counter row ({@link OrderedScanIds}) rather than the engine
     */
    public ScanLifecycle(Database db, Dialect dialect, TableNames names, java.util.function.Supplier<FsTables> tables,
                         Duration lease, boolean orderedIds) {
        this.db = db;
        this.t = names;
        this.lease = lease;
        this.orderedIds = orderedIds ? new OrderedScanIds(names) : null;
        this.writes = new Lazy<>(() -> new Writes(dialect, tables.get()));
    }

    /** The statements that write a scan's row. */
    private record Writes(Sql insertScan, Sql insertScanWithId, Sql abandonStale, Sql heartbeat, Sql finishScan) {
        Writes(Dialect dialect, FsTables t) {
            this(Statements.context(dialect), t);
        }

        private Writes(DSLContext ctx, FsTables t) {
            this(Sql.render(ctx, ctx.insertInto(t.scans, t.scanRoot, t.scanState, t.scanStartedAt,
                                    t.scanHeartbeatAt)
                            .values(param("root", String.class), inline("RUNNING"), param("now", Long.class),
                                    param("now", Long.class))),
                    Sql.render(ctx, ctx.insertInto(t.scans, t.scanRowId, t.scanRoot, t.scanState, t.scanStartedAt,
                                    t.scanHeartbeatAt)
                            .values(param("id", Long.class), param("root", String.class), inline("RUNNING"),
                                    param("now", Long.class), param("now", Long.class))),
                    Sql.render(ctx, ctx.update(t.scans)
                            .set(t.scanState, inline(ABANDONED))
                            .set(t.scanFinishedAt, coalesce(t.scanHeartbeatAt, t.scanStartedAt))
                            .set(t.scanMessage, param("message", String.class))
                            .where(t.scanState.eq(inline("RUNNING")))
                            .and(coalesce(t.scanHeartbeatAt, t.scanStartedAt).lt(param("cutoff", Long.class)))),
                    // A scan recorded ABANDONED while it was only stalled (its heartbeat blocked longer than the
                    // lease) shows it is alive again: the record follows the truth.
                    Sql.render(ctx, ctx.update(t.scans)
                            .set(t.scanHeartbeatAt, param("now", Long.class))
                            .set(t.scanState, inline("RUNNING"))
                            .set(t.scanFinishedAt, inline((Long) null))
                            .set(t.scanMessage, inline((String) null))
                            .where(t.scanRowId.eq(param("scan", Long.class)))
                            .and(t.scanState.in(inline("RUNNING"), inline(ABANDONED)))),
                    Sql.render(ctx, ctx.update(t.scans)
                            .set(t.scanState, param("state", String.class))
                            .set(t.scanFinishedAt, param("now", Long.class))
                            .set(t.scanHeartbeatAt, param("now", Long.class))
                            .set(t.scanAdded, param("added", Long.class))
                            .set(t.scanUpdated, param("updated", Long.class))
                            .set(t.scanMoved, param("moved", Long.class))
                            .set(t.scanDeleted, param("deleted", Long.class))
                            .set(t.scanErrors, param("errors", Long.class))
                            .set(t.scanMessage, param("message", String.class))
                            .where(t.scanRowId.eq(param("scan", Long.class)))));
        }
    }

    /** How long a running scan may show no sign of life before it is taken for dead. */
    Duration lease() {
        return lease;
    }

    /**
     * Records the scans whose lease ran out as {@code ABANDONED}, then inserts the new scan's row, in one transaction;
     * returns the new scan's id.
     */
    public long start(Connection c, String root) throws SQLException {
        int[] abandoned = {0};
        long id = db.write(c, conn -> {
            long now = System.currentTimeMillis();
            try (Sql.Bound q = writes.get().abandonStale().prepare(c)) {
                abandoned[0] = q.set("cutoff", now - lease.toMillis()).set("message", "abandoned: no sign of life for"
                        + " longer than the lease of " + lease.toMillis() / 1000.0 + " s (its process or its"
                        + " connection to the database is gone; finished_at is when it last showed life); recorded"
                        + " at " + Instant.ofEpochMilli(now) + " by the start of a later scan")
                        .statement.executeUpdate();
            }
            if (orderedIds != null) {
                long next = orderedIds.next(c);      // taken last: the counter stays locked only until the commit
                try (Sql.Bound q = writes.get().insertScanWithId().prepare(c)) {
                    q.set("id", next).set("root", root).set("now", now).statement.executeUpdate();
                }
                return next;
            }
            try (Sql.Bound q = writes.get().insertScan().prepareReturningId(c)) {
                q.set("root", root).set("now", now).statement.executeUpdate();
                try (ResultSet keys = q.statement.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("the database returned no id for the new scan");
                    }
                    return keys.getLong(1);
                }
            }
        });
        if (abandoned[0] > 0) {
            LOG.info("recorded {} scan(s) ABANDONED: no sign of life for longer than the scan lease of {} ms",
                    abandoned[0], lease.toMillis());
        }
        return id;
    }

    /** Keeps scan {@code id}'s heartbeat fresh until {@link #stopBeating}. */
    public synchronized void startBeating(long id) {
        beating.add(id);
        if (beats == null) {
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
                Thread thread = new Thread(r, "fsindex-heartbeat");
                thread.setDaemon(true);
                return thread;
            });
            executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            long period = Math.max(1, lease.toMillis() / 4);
            executor.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
            beats = executor;
        }
    }

    public void stopBeating(long id) {
        beating.remove(id);
    }

    public synchronized void close() {
        if (beats != null) {
            beats.shutdownNow();
        }
    }

    private void beat() {
        if (beating.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(beating);
        try (Connection c = db.connectLive()) {
            db.write(c, conn -> {
                long now = System.currentTimeMillis();
                try (Sql.Bound q = writes.get().heartbeat().prepare(c)) {
                    for (long id : ids) {
                        q.set("now", now).set("scan", id).statement.addBatch();
                    }
                    q.statement.executeBatch();
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            // The next beat tries again on a new connection; a database the scan itself lost fails the scan.
        }
    }

    /**
     * Records a scan's outcome: on the scan's own connection, and if that fails (the connection may be what broke),
     * once more on a fresh one.
     *
     * @throws SQLException the fresh connection's failure, with the first one suppressed, if both failed
     */
    public void finish(Connection scanConnection, long id, String state, long added, long updated, long moved, long deleted,
                long errors, String message) throws SQLException {
        Database.Work<Integer> write = c -> {
            try (Sql.Bound q = writes.get().finishScan().prepare(c)) {
                return q.set("scan", id).set("state", state).set("now", System.currentTimeMillis())
                        .set("added", added).set("updated", updated).set("moved", moved).set("deleted", deleted)
                        .set("errors", errors).set("message", message).statement.executeUpdate();
            }
        };
        try {
            db.write(scanConnection, write);
        } catch (SQLException | RuntimeException first) {
            // Whatever cut the scan's connection (a server killing its sessions, say) may cut the next one too.
            for (int attempt = 1; ; attempt++) {
                try (Connection fresh = db.connectLive()) {
                    db.write(fresh, write);
                    return;
                } catch (SQLException | RuntimeException again) {
                    boolean lost = again instanceof SQLException s && db.errors().isConnectionLost(s);
                    if (!lost || attempt == FRESH_CONNECTION_TRIES) {
                        again.addSuppressed(first);
                        throw again instanceof SQLException s ? s
                                : new SQLException(String.valueOf(again.getMessage()), again);
                    }
                }
            }
        }
    }

    /** How many fresh connections {@link #finish} tries when each loses its server in turn. */
    private static final int FRESH_CONNECTION_TRIES = 3;

    /**
     * Reads up to {@code limit} of the newest scans. A {@code RUNNING} scan whose heartbeat is older than the lease,
     * and which does not run in this process ({@code runningHere}), is shown {@code ABANDONED}, ended when it last
     * showed life, though no one may have recorded it yet (a read never writes).
     */
    public List<ScanRecord> recent(Connection c, int limit, Set<Long> runningHere) throws SQLException {
        List<ScanRecord> scans = new ArrayList<>();
        long cutoff = System.currentTimeMillis() - lease.toMillis();
        try (PreparedStatement s = c.prepareStatement("SELECT id, root, state, started_at, finished_at, added,"
                + " updated, deleted, errors, message, moved, heartbeat_at FROM " + t.scansName()
                + " ORDER BY id DESC")) {
            s.setMaxRows(limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next() && scans.size() < limit) {
                    long id = rs.getLong("id");
                    String state = rs.getString("state");
                    long started = rs.getLong("started_at");
                    long finished = rs.getLong("finished_at");
                    boolean unfinished = rs.wasNull() || finished == 0;
                    String message = rs.getString("message");
                    long heartbeatAt = rs.getLong("heartbeat_at");
                    long lastAlive = rs.wasNull() ? started : heartbeatAt;
                    if (state.equals("RUNNING") && lastAlive < cutoff && !runningHere.contains(id)) {
                        state = ABANDONED;
                        finished = lastAlive;
                        unfinished = false;
                        message = "abandoned: no sign of life since " + Instant.ofEpochMilli(lastAlive)
                                + ", longer than the lease of " + lease.toMillis() / 1000.0 + " s (its process or its"
                                + " connection to the database is gone); not yet recorded";
                    }
                    scans.add(new ScanRecord(id, rs.getString("root"), state, Instant.ofEpochMilli(started),
                            unfinished ? null : Instant.ofEpochMilli(finished), rs.getLong("added"),
                            rs.getLong("updated"), rs.getLong("moved"), rs.getLong("deleted"), rs.getLong("errors"),
                            message));
                }
            }
        }
        return scans;
    }
}
