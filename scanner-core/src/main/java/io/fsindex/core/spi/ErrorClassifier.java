package io.fsindex.core.spi;

import java.sql.SQLException;

/**
 * What an engine's errors mean to fsindex: which are worth retrying, which mean the connection is gone, and what a
 * terse one most likely means to a user. The engine's error codes live with its dialect. Handed out by
 * {@link Dialect#errors()}.
 */
public interface ErrorClassifier {

    /** Returns true if the failure is transient (busy, lock timeout, deadlock, serialization) and worth a retry. */
    boolean isRetryable(SQLException e);

    /**
     * Returns true if the failure means the connection itself is gone (closed or killed by the server, the network
     * or the server lost); by default a SQLSTATE of class 08 (connection exception).
     */
    default boolean isConnectionLost(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    /**
     * A few words on what most likely caused {@code e} where its own message does not say it plainly (a full disk
     * reported as an I/O error, say), added to the message users see; null (the default) for none.
     */
    default String likelyCause(SQLException e) {
        return null;
    }
}
