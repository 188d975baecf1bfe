package io.fsindex.core.spi;

import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.jooq.Field;

/**
 * Appends rows to the files table, and to the change feed, from UTF-8 text: one line per row, the columns
 * separated by tabs, {@code \N} for null, and backslash, tab, newline and carriage return inside a value escaped
 * as {@code \\}, {@code \t}, {@code \n}, {@code \r} (the text format of PostgreSQL's {@code COPY} and MySQL's
 * {@code LOAD DATA}). The rows come with their ids, taken by {@link #newIds}, so fsindex need not read them back;
 * where the engine can only number rows itself as it loads them, {@link #newIds} gives none and
 * {@link #loadedIds} tells the numbers afterwards. Handed out by {@link Dialect#bulkLoader}.
 */
public interface BulkLoader {
    /**
     * Takes {@code count} new ids from the files table's id generator, each never handed out before; or returns
     * null where the engine numbers the rows itself as {@link #load} appends them (the text then has no id).
     */
    long[] newIds(Connection c, int count) throws SQLException;

    /** Appends the rows of {@code text}, {@link #columns} in order, to the files table; returns how many. */
    long load(Connection c, InputStream text) throws SQLException;

    /**
     * Returns the ids the engine gave the {@code count} rows of scan {@code scan} that the last {@link #load} on
     * {@code c} appended, in the order of its text, or null if it cannot tell them (another writer's rows took
     * numbers in between); asked only where {@link #newIds} gives none.
     */
    default long[] loadedIds(Connection c, int count, long scan) throws SQLException {
        throw new UnsupportedOperationException("this loader takes its ids from newIds");
    }

    /** Appends the rows of {@code text}, {@link #changeColumns} in order, to the change feed's table. */
    void loadChanges(Connection c, InputStream text) throws SQLException;

    /**
     * Whether loads can run on {@code c} at all (both the server and the driver allow them); asked once per scan,
     * which inserts instead where not. True by default.
     */
    default boolean available(Connection c) throws SQLException {
        return true;
    }

    /**
     * The columns of {@link #load}'s text, in their order, for the loader's column list: the id first, left out
     * where {@link #newIds} gives none.
     */
    static List<Field<?>> columns(FsTables t) {
        return java.util.List.of(t.id, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget, t.fileKey,
                t.scanId, t.listedBy);
    }

    /** The columns of {@link #loadChanges}' text, in their order. */
    static List<Field<?>> changeColumns(FsTables t) {
        return java.util.List.of(t.changeSeq, t.changeEntry, t.changeType, t.changeKind, t.changeDir,
                t.changeName, t.changePreviousPath, t.changeScan, t.changeAt);
    }
}
