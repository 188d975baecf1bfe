package io.fsindex.sqlite;

import io.fsindex.core.spi.ErrorClassifier;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** SQLite's result codes as fsindex reads them: busy and locked are retried, a full disk is named as such. */
final class SqliteErrors implements ErrorClassifier {
    /** SQLITE_BUSY and SQLITE_LOCKED, the primary result codes of a lock another connection holds. */
    private static final int BUSY = 5;
    private static final int LOCKED = 6;

    /**
     * SQLite reports a disk that fills while it grows its shared-memory file ({@code -shm}) as an I/O error, not as
     * SQLITE_FULL; both mean the same to a user.
     */
    @Override
    public String likelyCause(SQLException e) {
        if (e instanceof SQLiteException s) {
            String code = s.getResultCode().name();
            if (code.equals("SQLITE_FULL") || code.equals("SQLITE_IOERR_SHMSIZE") || code.equals("SQLITE_IOERR_WRITE")
                    || code.equals("SQLITE_IOERR_FSYNC") || code.equals("SQLITE_IOERR_TRUNCATE")) {
                return "is the disk holding the database full?";
            }
        }
        return null;
    }

    @Override
    public boolean isRetryable(SQLException e) {
        if (e instanceof SQLiteException s) {
            SQLiteErrorCode code = s.getResultCode();
            return code.name().startsWith("SQLITE_BUSY") || code.name().startsWith("SQLITE_LOCKED");
        }
        int primary = e.getErrorCode() & 0xff;
        return primary == BUSY || primary == LOCKED;
    }
}
