package io.fsindex.core.scan;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.MountChangedException;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.api.ScopeException;
import io.fsindex.api.Walker;
import io.fsindex.core.FsIndex;
import io.fsindex.core.content.ContentStatements;
import io.fsindex.core.content.ContentStore;
import io.fsindex.core.feed.FeedSettings;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Statements;
import io.fsindex.core.scope.ScopeStore;
import io.fsindex.core.write.SqlFileSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts an index's scans, each on a thread of its own with a connection of its own, and records how each ended;
 * internal, called by {@code FsIndex.startScan}.
 */
public final class ScanLauncher {
    /** Logged under {@code FsIndex}'s name, where users look for a scan's start and outcome. */
    private static final Logger LOG = LoggerFactory.getLogger(FsIndex.class);
    private final Database db;
    private final java.util.function.Supplier<Statements> statements;
    private final java.util.function.Supplier<ContentStatements> contentStatements;
    private final Walker walker;
    private final FeedSettings feedSettings;
    private final ScanLifecycle lifecycle;
    /** Plans each scan's scope from the rules stored with the index, and records the mount points it found. */
    private final ScopeStore scopes;
    private final ExecutorService executor;
    private final Set<DefaultScanSession> running = ConcurrentHashMap.newKeySet();
    /** How many entries of a huge directory a scan lists and applies at a time; only tests change it. */
    private volatile int partEntries = Scan.PART_ENTRIES;

    public ScanLauncher(Database db, java.util.function.Supplier<Statements> statements,
                        java.util.function.Supplier<ContentStatements> contentStatements, Walker walker,
                        FeedSettings feedSettings, ScanLifecycle lifecycle,
                        ScopeStore scopes) {
        this.db = db;
        this.statements = statements;
        this.contentStatements = contentStatements;
        this.walker = walker;
        this.feedSettings = feedSettings;
        this.lifecycle = lifecycle;
        this.scopes = scopes;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fsindex-scan-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes the scans started from now on apply a huge directory in parts of {@code entries}. */
    public void listingPartEntries(int entries) {
        partEntries = entries;
    }

    /** The ids of the scans this launcher runs now. */
    public Set<Long> runningScanIds() {
        Set<Long> ids = new HashSet<>();
        running.forEach(session -> ids.add(session.scanId()));
        return ids;
    }

    /** Starts scanning {@code root}, as {@code FsIndex.startScan} says. */
    public ScanSession start(Path root, ScanOptions options) {
        return start(root, options, false);
    }

    /**
     * Starts scanning {@code root}; a directory scan ({@code directoryOnly}, {@code FsIndex.scanDirectory}) lists the
     * root and walks only the subdirectories new to it.
     */
    public ScanSession start(Path root, ScanOptions options, boolean directoryOnly) {
        Connection c = null;
        try {
            c = db.connectLive();           // a scan holds its connection throughout: not one a server dropped
            long id = lifecycle.start(c, root.toAbsolutePath().normalize().toString());
            Scan scan = new Scan(id, root, options, partEntries);
            Walker reader = options.walker() != null ? options.walker() : walker;
            if (directoryOnly) {
                scan.listRootOnly();
            }
            DefaultScanSession session = new DefaultScanSession(scan, root);
            running.add(session);
            lifecycle.startBeating(id);
            Connection connection = c;
            LOG.info("scan {} of {} started", id, root);
            executor.execute(() -> runScan(scan, session, connection, reader));
            return session;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(c);
            throw new ScanFailedException("cannot start a scan of " + root + ": " + (e instanceof SQLException s
                    ? db.describe(s) : db.dialect().name() + " error: " + e.getMessage()), e);
        }
    }

    /**
     * Runs a started scan on its own thread. The scope is planned here, before the first listing, not in
     * {@link #start}: planning stats the root with the scan's walker, and a walker is only ever called from the
     * scan's own threads. A refused scan ({@link ScopeException}, {@link MountChangedException}) ends FAILED having
     * changed no row, and its session's {@code await} throws the refusal.
     */
    private void runScan(Scan scan, DefaultScanSession session, Connection c, Walker reader) {
        try (c) {
            ScanResult result = null;
            Throwable failure;
            String state;
            String message;
            try {
                scan.walkWith(scopes.prepare(c, session.root(), scan.options(), reader));
                scan.hashContent(new ContentStore(db, contentStatements.get(), c));
                SqlFileSink sink = new SqlFileSink(db, statements.get(), c, scan.scanId(), scan.walker(), scan.listener(),
                        feedSettings, scan.options().contentHashing() != ContentHashing.OFF,
                        scan.partEntries());
                if (scan.isRootOnly()) {
                    sink.descendOnlyIntoNew();
                }
                result = scan.run(sink);
                scopes.recordMounts(c, scan.walker());
                failure = null;
                state = "COMPLETED";
                message = scan.isRootOnly() ? FsIndex.DIRECTORY_SCAN : null;
            } catch (CancellationException e) {
                failure = e;
                state = "CANCELLED";
                message = e.getMessage();
            } catch (RuntimeException | Error e) {
                failure = e;
                state = "FAILED";
                message = String.valueOf(e.getMessage());
            } catch (SQLException e) {
                failure = new ScanFailedException(db.dialect().name() + " error starting scan " + scan.scanId() + ": "
                        + e.getMessage(), e);
                state = "FAILED";
                message = String.valueOf(e.getMessage());
            }
            ScanResult r = result;
            try {
                lifecycle.finish(c, scan.scanId(), state, r == null ? 0 : r.added(), r == null ? 0 : r.modified(),
                        r == null ? 0 : r.moved(), r == null ? 0 : r.deleted(),
                        r == null ? scan.errorCount() : r.errors().size(), message);
            } catch (SQLException e) {
                // The outcome is not lost: the caller hears of it. The row stays RUNNING and, its heartbeat
                // stopped, is taken for ABANDONED once its lease has run out.
                ScanFailedException unrecorded = new ScanFailedException("scan " + scan.scanId() + " of "
                        + session.root() + " ended " + state + (r == null ? "" : " and its changes are committed")
                        + ", but recording that in the " + db.dialect().name() + " database failed, also on a fresh"
                        + " connection: " + e.getMessage(), e);
                if (failure != null) {
                    failure.addSuppressed(unrecorded);
                } else {
                    failure = unrecorded;
                }
            }
            logOutcome(scan.scanId(), session.root(), state, r, failure);
            if (failure == null) {
                session.complete(r);
            } else {
                session.fail(failure);
            }
        } catch (SQLException | RuntimeException e) {
            session.fail(e);
        } finally {
            lifecycle.stopBeating(scan.scanId());
            running.remove(session);
        }
    }

    private static void logOutcome(long scanId, Path root, String state, ScanResult r, Throwable failure) {
        if (failure == null) {
            LOG.debug("scan {} swept {} entries no longer on disk ({} unchanged, {} left to newer scans)", scanId,
                    r.deleted(), r.unchanged(), r.skipped());
            LOG.info("scan {} of {} completed in {} s: {} added, {} modified, {} moved, {} deleted, {} errors", scanId,
                    root, r.duration().toMillis() / 1000.0, r.added(), r.modified(), r.moved(), r.deleted(),
                    r.errors().size());
        } else {
            // INFO, not WARN: the failure itself reaches the caller, through ScanSession.await or scan()
            LOG.info("scan {} of {} ended {}: {}", scanId, root, state, failure.toString());
        }
    }

    /** Cancels the running scans and waits briefly for them to stop. */
    public void close() {
        running.forEach(DefaultScanSession::cancel);
        executor.shutdown();
        try {
            executor.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the original error is what the caller needs
            }
        }
    }
}
