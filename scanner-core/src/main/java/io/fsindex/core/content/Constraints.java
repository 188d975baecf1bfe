package io.fsindex.core.content;

import java.sql.SQLException;

/** Recognises constraint failures across the engines fsindex runs on. */
public final class Constraints {
    /** PostgreSQL's foreign_key_violation. */
    private static final String FK_STATE = "23503";
    /** MySQL and MariaDB: ER_ROW_IS_REFERENCED_2 (delete of a referenced row), ER_NO_REFERENCED_ROW_2 (reference to
     * a missing row), and their older forms ER_ROW_IS_REFERENCED and ER_NO_REFERENCED_ROW. */
    private static final int[] FK_CODES = {1451, 1452, 1216, 1217};
    /** SQLite's extended result code SQLITE_CONSTRAINT_FOREIGNKEY. */
    private static final int SQLITE_FK = 787;

    private Constraints() {
    }

    /** True if {@code e}, or an exception chained to it, is a foreign key violation. */
    static boolean isForeignKeyViolation(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (FK_STATE.equals(n.getSQLState()) || n.getErrorCode() == SQLITE_FK
                            || String.valueOf(n.getMessage()).contains("FOREIGN KEY constraint failed")) {
                        return true;
                    }
                    for (int code : FK_CODES) {
                        if (n.getErrorCode() == code) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }
}
