package io.fsindex.postgres;

import io.fsindex.core.spi.NameSearchIndex;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * PostgreSQL's name search index: a GIN index with {@code pg_trgm}'s trigram operator class over the lower-cased
 * name, which PostgreSQL maintains with the rows and uses for {@code lower(name) LIKE '%run%'}, rechecking every
 * candidate against the pattern. Creating it creates the {@code pg_trgm} extension if the database lacks it (a
 * trusted extension: the database owner, or a user with CREATE on the database, may); dropping it leaves the
 * extension, which other tables may use.
 * <p>
 * New rows go to the index's pending list first; a backend whose insert finds the list past its limit moves it into
 * the index, in passes of {@code work_mem} (see {@link PostgresConnections}). With the default 4 MB list and 4 MB
 * {@code work_mem} that move, once per few thousand names, cost a cold scan more than the rows themselves, and more
 * the larger the index grew; a longer list moved in one pass touches each trigram's posting tree once per flush
 * instead. The limit is the index's own storage parameter, so every writer, fsindex's or not, keeps it; the list
 * stays short enough for a search to read it whole (a search reads the pending list sequentially), and the
 * {@code VACUUM} after a large scan empties it.
 */
final class PostgresNameSearch implements NameSearchIndex {
    /** The pending list's limit in kB: sixteen MB of new index entries move into the index at once. */
    static final int PENDING_LIST_KB = 16 * 1024;

    @Override
    public boolean exists(Connection c, String t) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ?")) {
            s.setString(1, index(t));
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public List<String> create(String t) {
        return List.of("CREATE EXTENSION IF NOT EXISTS pg_trgm",
                "CREATE INDEX IF NOT EXISTS " + index(t) + " ON " + t + "files"
                        + " USING gin (lower(name) gin_trgm_ops)"
                        + " WITH (fastupdate = on, gin_pending_list_limit = " + PENDING_LIST_KB + ")");
    }

    @Override
    public List<String> drop(String t) {
        return List.of("DROP INDEX IF EXISTS " + index(t));
    }

    @Override
    public Condition nameContains(String t, Field<Long> rowId, Field<String> name, Field<String> likePattern) {
        // The same expression as the index's, so the planner can use it (and a plain scan answers it without).
        return DSL.condition("lower({0}) like {1}", name, likePattern);
    }

    /** The index's name as PostgreSQL stores it: unquoted names fold to lower case. */
    private static String index(String prefix) {
        return (prefix + "files_name_trgm").toLowerCase(Locale.ROOT);
    }
}
