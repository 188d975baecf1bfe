package io.fsindex.core.spi;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;

import static org.jooq.impl.DSL.param;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.SQLDialect;
import org.jooq.Table;

/**
 * What fsindex needs from one database engine. Statements are written once here with jOOQ, with named parameters
 * ({@code :scan}, {@code :parent}, …) that fsindex binds; a dialect overrides only what its engine needs done
 * differently. Implementations are found through {@code META-INF/services/io.fsindex.core.spi.Dialect} by
 * {@link #handlesJdbcUrl}, or given explicitly with {@code FsIndex.builder().dialect(...)}.
 *
 * <p>Parameters: {@code :scan} the current scan id; {@code :parent} a parent row id; {@code :name} an entry name;
 * {@code :kind}, {@code :size}, {@code :mtime}, {@code :link} an entry's attributes; {@code :dir} a directory row id.
 */
public interface Dialect {

    /** The engine's name as users know it, for messages ("SQLite", "PostgreSQL"). */
    String name();

    /** Returns true if this dialect serves the JDBC URL (match loosely, e.g. {@code contains(":sqlite:")}). */
    boolean handlesJdbcUrl(String jdbcUrl);

    /** The jOOQ dialect that renders this engine's SQL. */
    SQLDialect sqlDialect();

    /** Opens a data source for a URL when the application gave none; fsindex closes it if it is AutoCloseable. */
    DataSource openDataSource(String jdbcUrl, String user, String password);

    /**
     * Opens a data source for a read-only index ({@code FsIndex.Builder.buildReader()}): it must not create a database
     * that does not exist, nor need write access to open or read one. By default {@link #openDataSource}, right for
     * servers, where connecting creates nothing.
     */
    default DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password) {
        return openDataSource(jdbcUrl, user, password);
    }

    /**
     * Opens a data source for a URL as {@link #openDataSource(String, String, String)} does, with the pool sized and
     * observed as {@code pool} says. A dialect that pools connections overrides this (and has the three-argument
     * form call it with {@link PoolOptions#DEFAULTS}); by default the options are ignored.
     */
    default DataSource openDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return openDataSource(jdbcUrl, user, password);
    }

    /**
     * Opens a data source for a read-only index as {@link #openReadOnlyDataSource(String, String, String)} does, with
     * the pool sized and observed as {@code pool} says; by default the options are ignored.
     */
    default DataSource openReadOnlyDataSource(String jdbcUrl, String user, String password, PoolOptions pool) {
        return openReadOnlyDataSource(jdbcUrl, user, password);
    }

    /** Prepares a connection just taken from the data source, e.g. per-connection settings; called on every borrow. */
    default void prepare(Connection connection) throws SQLException {
    }

    /**
     * Makes a connection of a read-only index (already {@link #prepare prepared}) refuse every write at the database
     * level, whoever runs it, until the connection is closed; by default {@link Connection#setReadOnly}.
     */
    default void prepareReadOnly(Connection connection) throws SQLException {
        connection.setReadOnly(true);
    }

    /** Begins a write transaction that takes the locks it needs up front. */
    default void begin(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
    }

    /** Commits the transaction begun by {@link #begin}. */
    default void commit(Connection connection) throws SQLException {
        connection.commit();
        connection.setAutoCommit(true);
    }

    /** Rolls back the transaction begun by {@link #begin}, leaving the connection usable. */
    default void rollback(Connection connection) throws SQLException {
        connection.rollback();
        connection.setAutoCommit(true);
    }

    /**
     * Keeps other connections, in any process, from creating or upgrading the tables with {@code tablePrefix} until
     * {@link #unlockSchema}; needed where DDL commits on its own, so the write transaction around a migration cannot
     * serialise two processes opening a fresh database at once. Does nothing by default.
     */
    default void lockSchema(Connection connection, String tablePrefix) throws SQLException {
    }

    /** Releases the lock {@link #lockSchema} took. */
    default void unlockSchema(Connection connection, String tablePrefix) throws SQLException {
    }

    /**
     * The files holding the database on this machine, if the engine keeps it in files a scan could meet (SQLite's
     * database file and its {@code -wal}, {@code -shm} and {@code -journal} files), as real paths; scans never index
     * them as content. None by default: a server keeps its files to itself.
     *
     * @param connection a connection to the database
     * @return the files, possibly not existing yet
     * @throws SQLException if the database cannot say
     */
    default java.util.Set<java.nio.file.Path> databaseFiles(Connection connection) throws SQLException {
        return java.util.Set.of();
    }

    /**
     * The longest name, in characters, the engine keeps whole for a table, index, constraint, trigger or function,
     * or 0 if it has no limit a table prefix could reach (the default). fsindex refuses, when an index is built, a
     * table prefix that would make any name its {@link #schemaScript schema scripts} derive from it longer: an engine
     * that shortens longer names (PostgreSQL) would make two of them one, and one that refuses them (MySQL) would
     * fail half-way through creating the schema. A limit in bytes is one in characters here: prefixes are ASCII.
     */
    default int maxIdentifierLength() {
        return 0;
    }

    /** Returns true if the failure is transient (busy, lock timeout, deadlock, serialization) and worth a retry. */
    boolean isRetryable(SQLException e);

    /**
     * Returns true if the failure means the connection itself is gone (closed by the server, killed, the network or
     * the server lost); by default a SQLSTATE of class 08 (connection exception).
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

    /**
     * Returns the DDL script (resource {@code schema/V<version>.sql} beside the dialect class) that brings the schema from version {@code version - 1} to {@code version}, with
     * {@code ${prefix}} where table names start, or empty if this dialect has no such version.
     */
    default Optional<String> schemaScript(int version) {
        String resource = "schema/V" + version + ".sql";
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The engine's text index for case-insensitive substring search of names, or empty where it has none that fits
     * (the default): {@code find} then narrows names by a plain scan.
     */
    default Optional<NameSearchIndex> nameSearchIndex() {
        return Optional.empty();
    }

    /**
     * Inserts a child row if its parent still exists and no newer scan has listed the parent, or updates the existing
     * row if no newer scan has written it; affects no row otherwise.
     */
    default Query upsertChild(FsTables t) {
        Table<?> p = t.files.as("p");
        Field<Long> scan = param("scan", Long.class);
        Field<Long> parent = param("parent", Long.class);
        return updateUnlessNewer(insertSelect(t, parent, org.jooq.impl.DSL.exists(lockedWhereConcurrent(
                        selectOne().from(p)
                        .where(field(org.jooq.impl.DSL.name("p", "id"), Long.class).eq(parent))
                        .and(field(org.jooq.impl.DSL.name("p", "listed_by"), Long.class).le(scan)))))
                .onConflict(t.parent, t.name)
                .doUpdate(), t);
    }

    /**
     * Returns {@code guard}, a read of directory rows that writes below them depend on (their {@code listed_by}: a
     * scan may write a directory's children only while no newer scan has listed it), with a shared lock on the rows
     * read until the transaction ends where write transactions run concurrently, so that a newer scan's claim of a
     * directory (an {@code UPDATE} of its row) waits for the write and then sees it, or the write waits for the claim
     * and then sees {@code listed_by} too new. The rows exist whenever the lock matters, so this locks no gap.
     * Unchanged (a plain read) by default, enough where write transactions are serialised (SQLite's
     * {@code BEGIN IMMEDIATE}).
     */
    default <R extends org.jooq.Record> org.jooq.Select<R> lockedWhereConcurrent(
            org.jooq.SelectConditionStep<R> guard) {
        return guard;
    }

    /**
     * Returns {@code read}, a read of rows the transaction is about to write or take out of the index, with an exclusive lock
     * on the rows read until the transaction ends where write transactions run concurrently: the read waits for a
     * transaction changing one of them, or writing below one (which holds {@link #lockedWhereConcurrent its guard's}
     * shared lock on it), and then reads the row's newest version, and nothing is written below them until the
     * transaction ends. Unchanged (a plain read) by default, enough where write transactions are serialised.
     */
    default <R extends org.jooq.Record> org.jooq.Select<R> lockedForWrite(org.jooq.SelectConditionStep<R> read) {
        return read;
    }

    /**
     * Inserts {@code rows} child rows that were not there when this scan, owning their parents' listings, read the
     * parents' children in the same transaction; a row whose name has appeared since is left alone. Only a newer scan
     * can have written it (no older scan may write below a directory a newer one has claimed), so its row stands.
     * fsindex runs this only after {@link #lockedWhereConcurrent its guard} confirmed, with the row lock where the
     * engine needs one, that no newer scan has listed the parents, so unlike {@link #upsertChild} it needs no parent
     * check of its own. Row {@code i}'s parameters are {@code :parent}{@code i}, {@code :name}{@code i}, {@code
     * :kind}{@code i}, {@code :size}{@code i}, {@code :mtime}{@code i}, {@code :link}{@code i}, {@code :key}{@code
     * i} and {@code :listed}{@code i} (its {@code listed_by}: fsindex passes the scan for a directory it claims in
     * the same transaction, 0 otherwise); {@code :scan} is shared.
     */
    default Query insertChildren(FsTables t, int rows) {
        return childRows(t, rows).onConflictDoNothing();
    }

    /** The plain multi-row {@code INSERT … VALUES} that {@link #insertChildren} completes with a conflict clause. */
    static org.jooq.InsertValuesStep10<org.jooq.Record, Long, String, String, Long, Long, String, Long, Long, Integer,
            Long> childRows(FsTables t, int rows) {
        var insert = org.jooq.impl.DSL.insertInto(t.files, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget,
                t.fileKey, t.scanId, t.stale, t.listedBy);
        for (int i = 0; i < rows; i++) {
            insert = insert.values(param("parent" + i, Long.class), param("name" + i, String.class),
                    param("kind" + i, String.class), param("size" + i, Long.class), param("mtime" + i, Long.class),
                    param("link" + i, String.class), param("key" + i, Long.class), param("scan", Long.class),
                    inline(0), param("listed" + i, Long.class));
        }
        return insert;
    }

    /**
     * Returns {@link #insertChildren}, returning each inserted row's {@code id, parent, name} and leaving out each
     * row that conflicts with an existing one, or null where the engine cannot return them (the default): the scan
     * then reads the rows it inserted back.
     */
    default Query insertChildrenReturning(FsTables t, int rows) {
        return null;
    }

    /**
     * Throws if the {@link #insertChildrenReturning} statement that just ran left a row out for any reason but a
     * conflict with an existing row; does nothing by default, for an insert that can leave out only conflicting rows.
     */
    default void requireOnlyConflictsLeftOut(Statement insert) throws SQLException {
    }

    /**
     * Returns the engine's bulk loader for new child rows and the change rows recording them, or null where it has
     * none (the default): the rows then go in as {@link #insertChildren}, the changes as inserts. fsindex loads only
     * the children of a directory its scan inserted itself, and change rows numbered while it holds the feed's head,
     * so the loader needs no conflict handling: it fails on a conflicting row, and in the rare case that can have one
     * (a newer partial scan's root below such a directory) fsindex retries the transaction with inserts. Each loaded
     * row's parent has been read by the same transaction with its guard ({@link #lockedWhereConcurrent}), locked
     * where the engine needs it, and found, and the row's scan is running, so the engine's foreign-key checks of the
     * loaded rows can find nothing wrong and a loader may skip them.
     */
    default BulkLoader bulkLoader(FsTables t) {
        return null;
    }

    /**
     * Appends rows to the files table, and to the change feed, from UTF-8 text: one line per row, the columns
     * separated by tabs, {@code \N} for null, and backslash, tab, newline and carriage return inside a value escaped
     * as {@code \\}, {@code \t}, {@code \n}, {@code \r} (the text format of PostgreSQL's {@code COPY} and MySQL's
     * {@code LOAD DATA}). The rows come with their ids, taken by {@link #newIds}, so fsindex need not read them back;
     * where the engine can only number rows itself as it loads them, {@link #newIds} gives none and
     * {@link #loadedIds} tells the numbers afterwards.
     */
    interface BulkLoader {
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
        static java.util.List<Field<?>> columns(FsTables t) {
            return java.util.List.of(t.id, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget, t.fileKey,
                    t.scanId, t.listedBy);
        }

        /** The columns of {@link #loadChanges}' text, in their order. */
        static java.util.List<Field<?>> changeColumns(FsTables t) {
            return java.util.List.of(t.changeSeq, t.changeEntry, t.changeType, t.changeKind, t.changeDir,
                    t.changeName, t.changePreviousPath, t.changeScan, t.changeAt);
        }
    }

    /** Inserts a top-level row (a filesystem root, which has no parent), or updates it if no newer scan wrote it. */
    default Query upsertTopLevel(FsTables t) {
        // SQLite needs a WHERE before ON CONFLICT in INSERT ... SELECT, or it parses ON as a join.
        return updateUnlessNewer(insertSelect(t, inline(null, Long.class), org.jooq.impl.DSL.trueCondition())
                .onConflict(t.name).where(t.parent.isNull())
                .doUpdate(), t);
    }

    /**
     * Claims directory {@code :dir} for listing by scan {@code :scan} unless a newer scan has listed it; affects one
     * row if the scan may descend into it. By default {@link #claimDirectories} of that one row.
     */
    default Query claimDirectory(FsTables t) {
        return claimDirectories(t, t.id.eq(param("dir", Long.class)));
    }

    /**
     * Claims the directories {@code which} selects for listing by scan {@code :scan}, each unless a newer scan has
     * listed it; a directory's row then has {@code listed_by = :scan} exactly if the scan may descend into it.
     */
    default Query claimDirectories(FsTables t, org.jooq.Condition which) {
        Field<Long> scan = param("scan", Long.class);
        return org.jooq.impl.DSL.update(t.files)
                .set(t.listedBy, scan)
                .where(which)
                .and(t.listedBy.le(scan))
                .and(t.kind.eq(inline("DIRECTORY")));
    }

    /**
     * Locks the change feed's head row until the transaction ends and reads its {@code last_seq}. An fsindex write
     * transaction that changed entries runs this after its other writes and then writes only the feed until it
     * commits, so change numbers are handed out in commit order and the holder never waits for another lock. Where
     * write transactions are serialised anyway (SQLite), a plain read.
     */
    default Query lockFeed(FsTables t) {
        return org.jooq.impl.DSL.select(t.feedLastSeq).from(t.feed).where(t.feedId.eq(inline(1))).forUpdate();
    }

    /**
     * Refreshes the planner's statistics of the files table, which fsindex runs after a scan that added or removed
     * many rows; null where the engine keeps them fresh itself or plans well without (the default).
     */
    default Query analyzeFiles(FsTables t) {
        return null;
    }

    /**
     * How many levels an {@code ON DELETE CASCADE} may run within one statement on this engine; fsindex cuts deeper
     * subtrees from the bottom in bands of this depth before deleting their top rows. Unlimited by default.
     */
    default int maxCascadeDepth() {
        return Integer.MAX_VALUE;
    }

    /**
     * Deletes the files rows whose ids {@code ids} selects, a select that may read the files table itself (its one
     * column named {@code id}); by default {@code WHERE id IN} those ids read into a derived table first.
     */
    default Query deleteFiles(FsTables t, org.jooq.Select<? extends org.jooq.Record1<Long>> ids) {
        return org.jooq.impl.DSL.deleteFrom(t.files).where(t.id.in(idsOf(ids)));
    }

    /**
     * Sets {@code assignments} on the files rows whose ids {@code ids} selects (as for {@link #deleteFiles}) and that
     * meet {@code condition}; by default {@code WHERE condition AND id IN} those ids.
     */
    default Query updateFiles(FsTables t, org.jooq.Select<? extends org.jooq.Record1<Long>> ids,
                              java.util.Map<? extends Field<?>, ? extends Field<?>> assignments,
                              org.jooq.Condition condition) {
        return org.jooq.impl.DSL.update(t.files).set(assignments).where(condition).and(t.id.in(idsOf(ids)));
    }

    /** The ids {@code ids} selects, read through a derived table named {@code ids}. */
    private static org.jooq.Select<org.jooq.Record1<Long>> idsOf(
            org.jooq.Select<? extends org.jooq.Record1<Long>> ids) {
        return select(field(org.jooq.impl.DSL.name("ids", "id"), Long.class)).from(ids.asTable("ids"));
    }

    private static org.jooq.InsertOnDuplicateStep<org.jooq.Record> insertSelect(FsTables t, Field<Long> parent,
                                                                              org.jooq.Condition guard) {
        return org.jooq.impl.DSL.insertInto(t.files, t.parent, t.name, t.kind, t.size, t.mtime, t.linkTarget,
                        t.fileKey, t.scanId, t.stale, t.listedBy)
                .select(select(parent, param("name", String.class), param("kind", String.class),
                        param("size", Long.class), param("mtime", Long.class), param("link", String.class),
                        param("key", Long.class), param("scan", Long.class), inline(0), inline(0L)).where(guard));
    }

    /** The conflict branch of both upserts: take this scan's attributes unless a newer scan wrote the row. */
    private static Query updateUnlessNewer(org.jooq.InsertOnDuplicateSetStep<org.jooq.Record> conflict,
                                           FsTables t) {
        Field<Long> scan = param("scan", Long.class);
        return conflict
                .set(t.fingerprint, t.keptIfUnchanged(t.fingerprint))
                .set(t.contentHash, t.keptIfUnchanged(t.contentHash))
                .set(t.kind, param("kind", String.class))
                .set(t.size, param("size", Long.class))
                .set(t.mtime, param("mtime", Long.class))
                .set(t.linkTarget, param("link", String.class))
                .set(t.fileKey, param("key", Long.class))
                .set(t.scanId, scan)
                .set(t.stale, inline(0))
                .set(t.goneAt, inline(null, Long.class))
                .where(qualified(t, t.scanId).le(scan));
    }

    private static <T> Field<T> qualified(FsTables t, Field<T> column) {
        return field(org.jooq.impl.DSL.name(t.filesName(), column.getName()), column.getType());
    }
}
