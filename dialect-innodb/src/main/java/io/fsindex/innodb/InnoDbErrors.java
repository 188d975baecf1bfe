package io.fsindex.innodb;

import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import io.fsindex.core.spi.ErrorClassifier;

/**
 * InnoDB's error codes as fsindex reads them on MySQL and MariaDB: deadlocks, lock wait timeouts and serialization
 * failures are retried from the start of the transaction, a killed session is a lost connection.
 */
final class InnoDbErrors implements ErrorClassifier {
    /** ER_LOCK_DEADLOCK: InnoDB rolled the whole transaction back to break a deadlock. */
    static final int DEADLOCK = 1213;
    /** ER_LOCK_WAIT_TIMEOUT: a lock wait exceeded innodb_lock_wait_timeout. */
    static final int LOCK_WAIT_TIMEOUT = 1205;
    /** ER_DUP_ENTRY: the warning {@code INSERT IGNORE} leaves for a row it left out as a duplicate. */
    static final int DUPLICATE_ENTRY = 1062;

    @Override
    public boolean isRetryable(SQLException e) {
        return e.getErrorCode() == DEADLOCK || e.getErrorCode() == LOCK_WAIT_TIMEOUT
                || "40001".equals(e.getSQLState());
    }

    /** Besides class 08: the session was killed ({@code KILL}, ER_CONNECTION_KILLED, SQLSTATE 70100). */
    @Override
    public boolean isConnectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("70100"));
    }


    /**
     * Throws the first warning {@code insert} (an {@code INSERT IGNORE}) left that is not a duplicate row's, as the
     * error it would have been without {@code IGNORE}.
     */
    static void requireOnlyDuplicatesLeftOut(Statement insert) throws SQLException {
        for (SQLWarning w = insert.getWarnings(); w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() != DUPLICATE_ENTRY) {
                throw new SQLException("a row left out of an insert for another reason than a duplicate name: "
                        + w.getMessage(), w.getSQLState(), w.getErrorCode());
            }
        }
    }
}
