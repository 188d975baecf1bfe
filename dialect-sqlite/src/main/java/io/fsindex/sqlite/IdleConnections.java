package io.fsindex.sqlite;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps a few connections to one SQLite file open after their users close them, for the next user: a new connection
 * parses the whole schema before its first statement, which costs a lookup many times what the lookup itself does.
 *
 * <p>A connection goes back only in the state a new one starts in: no transaction open ({@link #inTransaction}, told by
 * {@link SqliteConnections}), autocommit on, and no statement left open (they are closed, so none holds a read
 * snapshot); its prepared statements are kept with it ({@link KeptStatements}). One that ran a write transaction first
 * frees its page cache ({@code PRAGMA shrink_memory}): a scan's cache may have grown to {@link
 * SqliteConnections#PAGE_CACHE_KIB}. Before an idle connection is handed out again the file must still be the one it
 * was opened on (same file key), so a database deleted or replaced under an open index is reported by the fresh
 * connection that replaces it, not read from the unlinked file. A connection idle for {@link #IDLE_MILLIS} is closed:
 * while open it holds its share of the file's locks, which another process taking the whole file ({@code PRAGMA
 * locking_mode = EXCLUSIVE}) must wait for, and keeps the {@code -wal} and {@code -shm} files in place.
 */
final class IdleConnections implements AutoCloseable {
    /** At most this many connections wait: enough for a few threads reading at once; more are closed. */
    static final int MAX_IDLE = 4;
    /** How long a connection may wait unused before it is closed. */
    static final long IDLE_MILLIS = 500;

    /** The database file, as the first connection lent names it ({@link SqliteConnections#mainFile}). */
    private volatile Path file;
    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;
    /** Whether a task that closes connections idle for too long is due. */
    private final AtomicBoolean evictionDue = new AtomicBoolean();

    private record Idle(Connection connection, KeptStatements statements, Object fileKey, long since) {
    }

    IdleConnections() {
    }

    /** An idle connection to the file, marked lent again, or null if none waits (or the file changed). */
    Connection take() throws SQLException {
        Idle first = idle.pollFirst();
        if (first == null) {
            return null;
        }
        Object key = fileKey();
        if (key == null || !key.equals(first.fileKey)) {
            first.connection.close();
            closeIdle();
            return null;
        }
        return lend(first.connection, first.statements, first.fileKey);
    }

    /** {@code opened}, just opened, as a connection whose {@code close} offers it back here. */
    Connection lend(Connection opened) throws SQLException {
        if (file == null) {
            try {
                file = SqliteConnections.mainFile(opened);
            } catch (SQLException | RuntimeException e) {
                opened.close();
                throw e;
            }
        }
        return lend(opened, new KeptStatements(opened), fileKey());
    }

    private Connection lend(Connection real, KeptStatements statements, Object fileKey) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Lent(real, statements, fileKey));
    }

    /** Records that {@code c} began ({@code true}) or ended ({@code false}) a transaction, if it was lent here. */
    static void inTransaction(Connection c, boolean open) {
        if (Proxy.isProxyClass(c.getClass()) && Proxy.getInvocationHandler(c) instanceof Lent lent) {
            lent.inTransaction = open;
            lent.wrote |= open;
        }
    }

    /** Closes the idle connections; connections still lent are closed when their users close them. */
    @Override
    public void close() throws SQLException {
        closed = true;
        closeIdle();
    }

    private void closeIdle() throws SQLException {
        SQLException failed = null;
        for (Idle i; (i = idle.pollFirst()) != null; ) {
            try {
                i.connection.close();
            } catch (SQLException e) {
                failed = e;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    private void scheduleEviction() {
        if (evictionDue.compareAndSet(false, true)) {
            CompletableFuture.delayedExecutor(IDLE_MILLIS, TimeUnit.MILLISECONDS).execute(this::closeLongIdle);
        }
    }

    /** Closes the connections idle for {@link #IDLE_MILLIS} or more, and comes back for the others. */
    private void closeLongIdle() {
        evictionDue.set(false);
        long now = System.nanoTime();
        for (Idle i : idle) {
            if (now - i.since >= TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS) && idle.removeFirstOccurrence(i)) {
                try {
                    i.connection.close();
                } catch (SQLException e) {
                    // closing an unused connection: nothing of anyone's is lost, and nothing waits on it
                }
            }
        }
        if (!idle.isEmpty()) {
            scheduleEviction();
        }
    }

    /**
     * The file's identity (device and inode), or {@code TRUE} where the file system has none to give (the file exists),
     * or null when it cannot be read: then no idle connection is reused.
     */
    private Object fileKey() {
        if (file == null) {
            return null;
        }
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key != null ? key : Boolean.TRUE;
        } catch (IOException e) {
            return null;
        }
    }

    /** A lent connection: everything goes to the real one, but {@code close} offers it back. */
    private final class Lent extends GivenBack<Connection> {
        private final KeptStatements kept;
        private final Object fileKey;
        private final List<Statement> statements = new ArrayList<>();
        volatile boolean inTransaction;
        volatile boolean wrote;

        Lent(Connection real, KeptStatements kept, Object fileKey) {
            super(real);
            this.kept = kept;
            this.fileKey = fileKey;
        }

        @Override
        Object call(Object proxy, Method method, Object[] args) throws Throwable {
            Object result = method.getName().equals("prepareStatement") && args.length == 1
                    ? kept.prepare((Connection) proxy, (String) args[0])
                    : super.call(proxy, method, args);
            if (result instanceof Statement s) {
                track(s);
            }
            return result;
        }

        /** Keeps the statements made here, to close those left open; closed ones are dropped now and then. */
        private void track(Statement s) throws SQLException {
            if (statements.size() >= 64) {
                List<Statement> open = new ArrayList<>();
                for (Statement t : statements) {
                    if (!t.isClosed()) {
                        open.add(t);
                    }
                }
                statements.clear();
                statements.addAll(open);
            }
            statements.add(s);
        }

        /** Keeps the connection if it is as a new one would be (its statements closed now), or closes it. */
        @Override
        void giveBack() throws SQLException {
            boolean keep = false;
            try {
                // while the proxy still reads as open: its prepared statements are kept only then
                for (Statement s : statements) {
                    s.close();
                }
                statements.clear();
                if (!closed && !inTransaction && !real.isClosed() && real.getAutoCommit() && idle.size() < MAX_IDLE) {
                    if (wrote) {
                        try (Statement s = real.createStatement()) {
                            s.execute("PRAGMA shrink_memory");
                        }
                    }
                    keep = true;
                }
            } finally {
                if (keep) {
                    idle.offerFirst(new Idle(real, kept, fileKey, System.nanoTime()));
                    scheduleEviction();
                } else {
                    real.close();
                }
            }
            if (closed) {
                // closed meanwhile: what was offered after close() took the rest must not stay open
                closeIdle();
            }
        }
    }
}
