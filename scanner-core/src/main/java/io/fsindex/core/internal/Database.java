package io.fsindex.core.internal;

import io.fsindex.core.FsIndex;
import io.fsindex.api.FsIndexException;
import io.fsindex.core.spi.Connections;
import io.fsindex.core.spi.Dialect;
import io.fsindex.core.spi.DialectStatements;
import io.fsindex.core.spi.ErrorClassifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Connections and retried write transactions against one database. */
public final class Database {
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    /** A unit of work that runs inside one transaction and may be run again from the start if it must be retried. */
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final DataSource dataSource;
    private final Dialect dialect;
    /** The dialect's parts, asked for once. */
    private final Connections connections;
    private final ErrorClassifier errors;
    private final DialectStatements statements;
    private final Duration retryFor;
    /** Set for a read-only index: every connection refuses writes at the database level, and {@link #write} too. */
    private final boolean readOnly;
    /** Transactions run again because the database was busy, for {@code FsIndex.transactionRetries()}. */
    private final LongAdder retries = new LongAdder();
    /** Groups of listings applied in smaller transactions because theirs kept conflicting ({@code GroupShrinker}). */
    private final LongAdder groupSplits = new LongAdder();
    /** Every write transaction runs at SERIALIZABLE ({@code FsIndex.Builder.serializableWrites}). */
    private final boolean serializable;
    /** Whether {@link #connect} hands out connections as they come: the dialect opened them prepared. */
    private final boolean connectionsComePrepared;
    /** The isolation level connections start at, read from the first one a serializable write used; -1 before. */
    private volatile int defaultIsolation = -1;

    /**
     * {@code readOnly}: every connection refuses writes; {@code serializable}: write transactions run at SERIALIZABLE;
     * {@code opened}: the dialect opened {@code dataSource} itself, so its connections need no preparing if the
     * dialect {@link Connections#opensPreparedConnections says so}.
     */
    public Database(DataSource dataSource, Dialect dialect, Duration retryFor, boolean readOnly,
                    boolean serializable, boolean opened) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.connections = dialect.connections();
        this.errors = dialect.errors();
        this.statements = dialect.statements();
        this.retryFor = retryFor;
        this.readOnly = readOnly;
        this.serializable = serializable;
        this.connectionsComePrepared = opened && connections.opensPreparedConnections();
    }

    /** The engine's dialect. */
    public Dialect dialect() {
        return dialect;
    }

    /** The dialect's sessions and transactions. */
    public Connections connections() {
        return connections;
    }

    /** The dialect's reading of the engine's errors. */
    public ErrorClassifier errors() {
        return errors;
    }

    /** The statements as this engine needs them. */
    public DialectStatements statements() {
        return statements;
    }

    /** Whether this is a read-only index's database: every connection refuses writes, and {@link #write} too. */
    public boolean readOnly() {
        return readOnly;
    }

    /** How many transactions ran again because the database was busy. */
    public long retries() {
        return retries.sum();
    }

    /** How many groups of listings were applied in smaller transactions because theirs kept conflicting. */
    public long groupSplits() {
        return groupSplits.sum();
    }

    /** Counts one group of listings split ({@code GroupShrinker}). */
    public void countGroupSplit() {
        groupSplits.increment();
    }

    public Connection connect() throws SQLException {
        Connection c = dataSource.getConnection();
        if (connectionsComePrepared) {
            return c;
        }
        try {
            connections.prepare(c);
            if (readOnly) {
                connections.prepareReadOnly(c);
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** How many pooled connections {@link #connectLive} tries before it gives up: more than any pool fsindex opens. */
    static final int LIVE_CONNECTION_TRIES = 33;

    /**
     * {@link #connect} for work that must not fail on a connection the server closed after the pool last used it
     * (killed, or the server restarted): each connection makes a round trip first, and one that has lost its server
     * is closed and the next tried. The failed round trip is what makes a pool such as HikariCP discard the
     * connection instead of handing it out again; it tests a connection itself only after it was idle a while.
     */
    public Connection connectLive() throws SQLException {
        SQLException lost = null;
        for (int i = 0; i < LIVE_CONNECTION_TRIES; i++) {
            Connection c = null;
            try {
                c = connect();
                try (java.sql.Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                }
                return c;
            } catch (SQLException e) {
                if (c != null) {
                    c.close();
                }
                if (!errors.isConnectionLost(e)) {
                    throw e;
                }
                if (lost != null) {
                    e.addSuppressed(lost);
                }
                lost = e;
            }
        }
        throw lost;
    }

    /** The message users see for {@code e}: the engine, its message, and what likely caused it if the dialect knows. */
    public String describe(SQLException e) {
        String cause = errors.likelyCause(e);
        return dialect.name() + " error: " + e.getMessage() + (cause == null ? "" : " (" + cause + ")");
    }

    /**
     * Runs {@code work} in a write transaction, retrying it from the start with backoff while the database reports a
     * transient failure (busy, deadlock, serialization), for at most the configured retry time.
     */
    public <T> T write(Connection c, Work<T> work) throws SQLException {
        return write(c, work, Integer.MAX_VALUE);
    }

    /**
     * {@link #write}, but once {@code conflicts} attempts have failed on a conflict with concurrent transactions
     * (SQLSTATE class 40: a serialization failure or a deadlock) it gives up with {@link KeepsConflicting}, so that
     * the caller can split the work into smaller transactions, which conflict less often.
     */
    public <T> T write(Connection c, Work<T> work, int conflicts) throws SQLException {
        if (readOnly) {
            throw new IllegalStateException("this index was opened read-only; it cannot write");
        }
        long deadline = System.nanoTime() + retryFor.toNanos();
        long backoffMillis = 2;
        SQLException retried = null;
        int attempt = 1;
        int conflicted = 0;
        while (true) {
            try {
                int isolation = beginIsolated(c);
                try {
                    T result = work.run(c);
                    connections.commit(c);
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c, e);
                    throw e;
                } finally {
                    restoreIsolation(c, isolation);
                }
            } catch (SQLException e) {
                if (!isRetryable(e)) {
                    if (retried != null && retried != e) {
                        // What made the last attempt retry (a refused bulk load, say) may explain this failure.
                        e.addSuppressed(retried);
                    }
                    throw e;
                }
                retried = e;
                if (isConflict(e) && ++conflicted >= conflicts) {
                    LOG.debug("{} transaction conflicted {} times; handing it back to be split: {}", dialect.name(),
                            conflicted, e.toString());
                    retries.increment();
                    throw new KeepsConflicting(conflicted, e);
                }
                if (System.nanoTime() > deadline) {
                    LOG.warn("{} stayed busy for longer than the retry timeout of {} ms; giving up after {} attempts:"
                            + " {}", dialect.name(), retryFor.toMillis(), attempt, e.toString());
                    throw new SQLException("the database stayed busy (locked by another connection or process) for"
                            + " longer than the retry timeout of " + retryFor.toMillis() + " ms; last error: "
                            + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                }
                long pause = ThreadLocalRandom.current().nextLong(backoffMillis / 2, backoffMillis + 1);
                LOG.debug("{} transaction attempt {} must be retried, in {} ms: {}", dialect.name(), attempt, pause,
                        e.toString());
                attempt++;
                retries.increment();
                sleep(pause);
                backoffMillis = Math.min(backoffMillis * 2, 500);
            }
        }
    }

    /**
     * Begins a write transaction, at SERIALIZABLE if this index asks for it; returns the isolation level to restore
     * afterwards, or -1 if it was not changed. The level is set before the transaction begins (a driver refuses it
     * inside one) and restored after, so that the connection's autocommit reads, and a pool's next user, keep theirs.
     */
    private int beginIsolated(Connection c) throws SQLException {
        int previous = -1;
        if (serializable) {
            previous = defaultIsolation;
            if (previous == -1) {
                // Asked once: the driver may ask the server every time, and every connection starts at the same level.
                defaultIsolation = previous = c.getTransactionIsolation();
            }
            if (previous == Connection.TRANSACTION_SERIALIZABLE) {
                previous = -1;
            } else {
                c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            }
        }
        try {
            connections.begin(c);
        } catch (SQLException | RuntimeException e) {
            restoreIsolation(c, previous);
            throw e;
        }
        return previous;
    }

    private static void restoreIsolation(Connection c, int isolation) throws SQLException {
        if (isolation != -1 && c.getAutoCommit()) {
            c.setTransactionIsolation(isolation);
        }
    }

    /** A failure because of a concurrent transaction (SQLSTATE class 40: serialization failure, deadlock). */
    static boolean isConflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (n.getSQLState() != null && n.getSQLState().startsWith("40")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * A write that {@link #write(Connection, Work, int)} gave up on after its transaction conflicted the given
     * number of times; rolled back, nothing of it applied.
     */
    public static final class KeepsConflicting extends RuntimeException {
        private final int conflicts;

        KeepsConflicting(int conflicts, SQLException last) {
            super("the transaction conflicted with concurrent ones " + conflicts + " times; last: " + last.getMessage(),
                    last);
            this.conflicts = conflicts;
        }

        /** How many attempts failed on a conflict. */
        public int conflicts() {
            return conflicts;
        }
    }

    public <T> T read(Work<T> work) {
        try (Connection c = connect()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new FsIndexException(describe(e), e);
        }
    }

    public boolean isRetryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LoadRefused || t instanceof RowsAboveFloor || t instanceof DirectoryMovedMeanwhile) {
                return true;
            }
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (errors.isRetryable(n)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void rollbackQuietly(Connection c, Exception cause) {
        try {
            connections.rollback(c);
        } catch (SQLException | RuntimeException r) {
            cause.addSuppressed(r);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FsIndexException("interrupted while waiting to retry a busy database", e);
        }
    }
}
