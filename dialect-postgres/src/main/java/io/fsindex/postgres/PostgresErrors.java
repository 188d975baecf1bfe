package io.fsindex.postgres;

import io.fsindex.core.spi.ErrorClassifier;
import java.sql.SQLException;
import java.util.Set;

/** PostgreSQL's SQLSTATEs as fsindex reads them: which failures are retried, and which mean the session is gone. */
final class PostgresErrors implements ErrorClassifier {
    /** SQLSTATEs after which fsindex retries the whole transaction; {@link PostgresDialect} says why each is here. */
    static final Set<String> RETRYABLE_STATES = Set.of(
            "40001", // serialization_failure
            "40P01", // deadlock_detected
            "55P03", // lock_not_available
            "23505", // unique_violation: a concurrent CREATE of the schema (on the catalog), or a COPY meeting a row
            "23503"); // foreign_key_violation: parent deleted concurrently; the retry's EXISTS check skips the child

    @Override
    public boolean isRetryable(SQLException e) {
        return e.getSQLState() != null && RETRYABLE_STATES.contains(e.getSQLState());
    }

    /** Besides class 08: the server terminated the session (admin command, crash recovery) or is starting up. */
    @Override
    public boolean isConnectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P0"));
    }
}
