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

    final DataSource dataSource;
    public final Dialect dialect;
    /** The dialect's parts, asked for once. */
    public final Connections connections;
    public final ErrorClassifier errors;
    public final DialectStatements statements;
    private final Duration retryFor;
    /** Set for a read-only index: every connection refuses writes at the database level, and {@link #write} too. */
    public final boolean readOnly;
    /** Transactions run again because the database was busy, for {@code FsIndex.transactionRetries()}. */
    public final LongAdder retries = new LongAdder();

    public Database(DataSource dataSource, Dialect dialect, Duration retryFor) {
        this(dataSource, dialect, retryFor, false);
    }

    public Database(DataSource dataSource, Dialect dialect, Duration retryFor, boolean readOnly) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.connections = dialect.connections();
        this.errors = dialect.errors();
        this.statements = dialect.statements();
        this.retryFor = retryFor;
        this.readOnly = readOnly;
    }

    public Connection connect() throws SQLException {
        Connection c = dataSource.getConnection();
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
        if (readOnly) {
            throw new IllegalStateException("this index was opened read-only; it cannot write");
        }
        long deadline = System.nanoTime() + retryFor.toNanos();
        long backoffMillis = 2;
        SQLException retried = null;
        int attempt = 1;
        while (true) {
            try {
                connections.begin(c);
                try {
                    T result = work.run(c);
                    connections.commit(c);
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c, e);
                    throw e;
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

    public <T> T read(Work<T> work) {
        try (Connection c = connect()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new FsIndexException(describe(e), e);
        }
    }

    public boolean isRetryable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LoadRefused || t instanceof RowsAboveFloor) {
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
