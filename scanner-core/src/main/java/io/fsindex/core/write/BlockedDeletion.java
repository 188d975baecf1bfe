package io.fsindex.core.write;

import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Sql;
import io.fsindex.api.ScanFailedException;
import io.fsindex.core.spi.FsTables;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A delete of fsindex's rows that another table's foreign key refused ({@code ON DELETE RESTRICT} or
 * {@code NO ACTION}): an application still references an entry fsindex found gone. Thrown inside the failed
 * transaction, so that it is rolled back and not retried (PostgreSQL's foreign-key violation is otherwise retryable),
 * and explained once the transaction is over, when the catalog can be read to name the reference.
 */
public final class BlockedDeletion extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** SQLite's SQLITE_CONSTRAINT primary result code: the driver gives SQLite's errors no SQLState. */
    private static final int SQLITE_CONSTRAINT = 19;

    BlockedDeletion(SQLException cause) {
        super(cause.getMessage(), cause);
    }

    /**
     * Runs a DELETE of fsindex's rows; a refusal by another table's foreign key becomes a {@link BlockedDeletion},
     * which {@link Database#write} rolls back without retrying.
     */
    static int execute(Sql.Bound delete) throws SQLException {
        try {
            return delete.statement.executeUpdate();
        } catch (SQLException e) {
            if (refused(e)) {
                throw new BlockedDeletion(e);
            }
            throw e;
        }
    }

    /**
     * Returns true if {@code e}, raised by a DELETE of fsindex's rows, is an integrity violation: fsindex's own
     * references to those rows cascade, so only another table's restricting foreign key can raise one there.
     */
    static boolean refused(SQLException e) {
        for (SQLException n = e; n != null; n = n.getNextException()) {
            String state = n.getSQLState();
            if (state != null ? state.startsWith("23") : (n.getErrorCode() & 0xff) == SQLITE_CONSTRAINT) {
                return true;
            }
        }
        return false;
    }

    /**
     * The error the user gets: which references may have refused the deletion of {@code what} (from the catalog: the
     * engines' own messages do not all name them), that nothing was deleted, and what to do.
     */
    ScanFailedException explain(Connection c, Database db, FsTables t, String what) {
        List<String> refs = new ArrayList<>();
        try {
            refs = restrictingReferences(c, t);
        } catch (SQLException | RuntimeException e) {
            addSuppressed(e); // the explanation is best effort; the engine's own message still goes out below
        }
        String by = refs.isEmpty() ? "a foreign key of another table refused it"
                : refs.size() == 1 ? refs.get(0) + " still has rows for some of them"
                : "one of these references still has rows for some of them: " + String.join("; ", refs);
        return new ScanFailedException(what + " found entries gone but cannot delete them: " + by + ". Nothing was"
                + " deleted and the entries stay in the index; every scan that finds them gone fails the same way"
                + " until the application deletes or repoints its rows that reference them, or declares its reference"
                + " ON DELETE CASCADE or ON DELETE SET NULL (see the README, \"Store contract\"). " + db.dialect().name()
                + " error: " + getMessage(), getCause());
    }

    /** Tables outside fsindex whose foreign keys to the files table refuse deletes, described for a message. */
    private static List<String> restrictingReferences(Connection c, FsTables t) throws SQLException {
        Set<String> own = Set.of(t.filesName(), t.scansName(), t.schemaName(), t.contentsName(), t.changesName(),
                t.feedName()).stream().map(n -> n.toLowerCase(Locale.ROOT))
                .collect(java.util.stream.Collectors.toSet());
        DatabaseMetaData md = c.getMetaData();
        Set<String> out = new LinkedHashSet<>();
        // Unquoted names are stored folded differently per engine; ask for each spelling.
        for (String name : new LinkedHashSet<>(List.of(t.filesName(), t.filesName().toLowerCase(Locale.ROOT),
                t.filesName().toUpperCase(Locale.ROOT)))) {
            try (ResultSet rs = md.getExportedKeys(c.getCatalog(), c.getSchema(), name)) {
                while (rs.next()) {
                    String table = rs.getString("FKTABLE_NAME");
                    int rule = rs.getShort("DELETE_RULE");
                    if (own.contains(table.toLowerCase(Locale.ROOT))
                            || (rule != DatabaseMetaData.importedKeyRestrict
                            && rule != DatabaseMetaData.importedKeyNoAction)) {
                        continue;
                    }
                    String constraint = rs.getString("FK_NAME");
                    out.add("table " + table + " references " + t.filesName() + "(id)"
                            + (constraint == null || constraint.isEmpty() ? "" : " through constraint " + constraint)
                            + " (column " + rs.getString("FKCOLUMN_NAME") + ", ON DELETE "
                            + (rule == DatabaseMetaData.importedKeyRestrict ? "RESTRICT" : "NO ACTION") + ")");
                }
            }
        }
        return new ArrayList<>(out);
    }
}
