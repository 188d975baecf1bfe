package io.fsindex.core.spi;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;

/**
 * An engine's own text index over file names, which narrows a case-insensitive substring search to the rows whose
 * names hold a given run of characters. It is optional ({@code FsIndex.Builder#nameSearchIndex}), lives outside
 * the versioned schema (its statements are idempotent and it can be dropped and rebuilt at any time), and the
 * engine keeps it in step with the file rows in the same transaction (a trigger or the engine's own index upkeep).
 * It only narrows: fsindex matches every candidate's name exactly, so results never depend on it.
 */
public interface NameSearchIndex {
    /** The shortest run of characters the index narrows by; shorter runs are searched by a plain scan. */
    int MIN_RUN = 3;

    /** Whether the index is present in the database {@code c} is connected to. */
    boolean exists(Connection c, String tablePrefix) throws SQLException;

    /**
     * Statements that create the index and fill it from the rows already there, run in one write transaction
     * when {@link #exists} says it is missing.
     */
    List<String> create(String tablePrefix);

    /** Statements that drop the index and whatever keeps it current, each harmless if it is not there. */
    List<String> drop(String tablePrefix);

    /**
     * A condition on the rows read through alias {@code r} that holds for every row whose lower-cased name
     * contains the lower-case text that {@code likePattern} ({@code %run%}, with no other wildcard) surrounds, and
     * that the engine answers from the index; rows may pass that do not hold the run.
     *
     * @param rowId       the row's id column, qualified by {@code r}
     * @param name        the row's name column, qualified by {@code r}
     * @param likePattern the bound LIKE pattern
     */
    Condition nameContains(String tablePrefix, Field<Long> rowId, Field<String> name, Field<String> likePattern);
}
