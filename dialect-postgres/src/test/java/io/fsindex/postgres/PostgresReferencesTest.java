package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.core.FsIndex;
import io.fsindex.core.schema.SchemaManager;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Schema version 3 enforces the files table's references to its parent and its scan with statement triggers instead
 * of foreign keys; these tests hold them to what the foreign keys promised, on the real server, including against a
 * concurrent transaction.
 */
class PostgresReferencesTest {
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final TestDatabase db = PostgresTestServer.database();
    private final String prefix = TestDatabase.freshPrefix();
    private final FsTables t = new FsTables(prefix);
    private PgSession one;
    private PgSession two;
    private long scan;

    @BeforeEach
    void openIndexAndSessions() throws Exception {
        db.builder(prefix).build().close();          // creates the schema at the current version
        one = new PgSession(db, t);
        two = new PgSession(db, t);
        scan = one.newScan();
    }

    @AfterEach
    void close() throws SQLException {
        executor.shutdownNow();
        one.close();
        two.close();
    }

    @Test
    void aRowNamingAParentOrScanThatDoesNotExistIsRefusedWithTheForeignKeysError() throws Exception {
        long dir = insert(one, null, "top", "DIRECTORY", scan);

        assertForeignKeyViolation(() -> insert(one, 987_654_321L, "orphan", "FILE", scan));
        assertForeignKeyViolation(() -> insert(one, dir, "unscanned", "FILE", 987_654_321L));
        long file = insert(one, dir, "f", "FILE", scan);
        assertForeignKeyViolation(() -> one.execute("UPDATE " + t.filesName() + " SET parent = 987654321 WHERE id = "
                + file));
        assertForeignKeyViolation(() -> one.execute("DELETE FROM " + t.scansName() + " WHERE id = " + scan));

        // Updates that leave the references alone pass, and so does a multi-row insert whose parents all exist.
        one.execute("UPDATE " + t.filesName() + " SET size = 7 WHERE id = " + file);
        one.execute("INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id) VALUES (" + dir + ", 'a', 'FILE', "
                + scan + "), (" + file + ", 'b', 'FILE', " + scan + "), (" + dir + ", 'c', 'FILE', " + scan + ")");
        assertThat(one.queryLong("SELECT count(*) FROM " + t.filesName())).isEqualTo(5);
    }

    @Test
    void deletingARowDeletesEveryRowBelowIt() throws Exception {
        long top = insert(one, null, "top", "DIRECTORY", scan);
        long parent = top;
        for (int depth = 0; depth < 300; depth++) {   // deeper than a trigger calling itself per level could go
            insert(one, parent, "f" + depth, "FILE", scan);
            parent = insert(one, parent, "d" + depth, "DIRECTORY", scan);
        }
        long other = insert(one, null, "other", "DIRECTORY", scan);
        insert(one, other, "kept", "FILE", scan);

        one.execute("DELETE FROM " + t.filesName() + " WHERE id = " + top);

        assertThat(one.queryLong("SELECT count(*) FROM " + t.filesName())).isEqualTo(2);
    }

    /** As with a foreign key, the insert's check locks the parent, so it waits for the delete and then fails. */
    @Test
    void aChildInsertedWhileItsParentIsBeingDeletedWaitsAndThenFails() throws Exception {
        long dir = insert(one, null, "top", "DIRECTORY", scan);
        one.begin();
        one.execute("DELETE FROM " + t.filesName() + " WHERE id = " + dir);

        Future<Long> child = executor.submit(() -> insert(two, dir, "late", "FILE", scan));
        assertThat(one.awaitLockWait(two.pid, child)).as("the insert must wait for the deleting transaction").isTrue();
        one.commit();

        assertThatThrownBy(() -> child.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(SQLException.class)
                .cause().satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
        assertThat(one.queryLong("SELECT count(*) FROM " + t.filesName())).isZero();
    }

    /** The other order: the delete waits for the inserting transaction, and then takes its committed child along. */
    @Test
    void aParentDeletedWhileAChildIsBeingInsertedTakesTheCommittedChildAlong() throws Exception {
        long dir = insert(one, null, "top", "DIRECTORY", scan);
        two.begin();
        insert(two, dir, "early", "FILE", scan);

        Future<?> delete = executor.submit(() -> {
            one.execute("DELETE FROM " + t.filesName() + " WHERE id = " + dir);
            return null;
        });
        assertThat(two.awaitLockWait(one.pid, delete)).as("the delete must wait for the inserting transaction")
                .isTrue();
        two.commit();
        delete.get(30, TimeUnit.SECONDS);

        assertThat(one.queryLong("SELECT count(*) FROM " + t.filesName())).isZero();
    }

    /** A version-2 database (foreign keys) is upgraded in place: rows kept, keys replaced by the triggers. */
    @Test
    void aVersionTwoDatabaseIsUpgradedKeepingItsRows() throws Exception {
        String old = TestDatabase.freshPrefix();
        FsTables o = new FsTables(old);
        PostgresDialect dialect = new PostgresDialect();
        one.begin();
        for (int version = 1; version <= 2; version++) {
            one.execute(dialect.schemaScript(version).orElseThrow().replace("${prefix}", old));
        }
        one.commit();
        long oldScan = one.queryLong("INSERT INTO " + o.scansName() + " (root, state, started_at)"
                + " VALUES ('/', 'COMPLETED', 0) RETURNING id");
        long dir = one.queryLong("INSERT INTO " + o.filesName() + " (parent, name, kind, scan_id)"
                + " VALUES (NULL, 'top', 'DIRECTORY', " + oldScan + ") RETURNING id");
        one.execute("INSERT INTO " + o.filesName() + " (parent, name, kind, scan_id) VALUES (" + dir + ", 'f', 'FILE', "
                + oldScan + ")");
        assertThat(foreignKeysOfFiles(o)).isEqualTo(3);

        try (FsIndex index = db.builder(old).build()) {
            assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaManager.CURRENT_VERSION);
        }
        assertThat(one.queryLong("SELECT count(*) FROM " + o.filesName())).isEqualTo(2);
        assertThat(foreignKeysOfFiles(o)).as("only content_hash stays a foreign key").isEqualTo(1);
        one.execute("DELETE FROM " + o.filesName() + " WHERE id = " + dir);
        assertThat(one.queryLong("SELECT count(*) FROM " + o.filesName())).isZero();
    }

    /**
     * The check must find a statement's parents by index however big the table has grown since the session's first
     * statements: a plan kept from then (a nearly empty table) would read the whole table for every statement, which
     * made a cold scan five times slower. The session's own statistics count the rows read sequentially.
     */
    @Test
    void aStatementsCheckReadsItsParentsByIndexHoweverBigTheTableHasGrown() throws Exception {
        one.execute("ALTER TABLE " + t.filesName() + " SET (autovacuum_enabled = false)");  // no ANALYZE to replan
        long top = insert(one, null, "top", "DIRECTORY", scan);
        for (int i = 0; i < 10; i++) {       // a scan's first statements: a few rows below many directories
            one.execute("UPDATE " + t.filesName() + " SET listed_by = " + scan + " WHERE id = " + top);
            one.execute("INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id) SELECT " + top + ", 'd" + i
                    + "_' || g, 'DIRECTORY', " + scan + " FROM generate_series(1, 64) g");
            one.execute(filesInEachDirectory("early" + i));
        }
        one.execute("INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id) SELECT " + top + ", 'bulk' || g,"
                + " 'FILE', " + scan + " FROM generate_series(1, 20000) g");

        String late = "INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id) VALUES "
                + java.util.stream.LongStream.rangeClosed(top + 1, top + 64)
                        .mapToObj(dir -> "(" + dir + ", 'late', 'FILE', " + scan + ")")
                        .collect(java.util.stream.Collectors.joining(", "));
        one.begin();
        long before = sequentiallyRead();
        one.execute(late);
        long readSequentially = sequentiallyRead() - before;
        one.commit();

        assertThat(readSequentially).as("rows of a 21,281-row table read sequentially").isLessThan(1_000);
    }

    /** Rows of the files table this session has read by sequential scans (its statistics not yet flushed). */
    private long sequentiallyRead() throws SQLException {
        return one.queryLong("SELECT seq_tup_read FROM pg_stat_xact_user_tables WHERE relid = ?::regclass",
                t.filesName());
    }

    /** One statement inserting a file named {@code name} below every directory. */
    private String filesInEachDirectory(String name) {
        return "INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id) SELECT id, '" + name + "', 'FILE', "
                + scan + " FROM " + t.filesName() + " WHERE kind = 'DIRECTORY' AND parent IS NOT NULL";
    }

    /** Dropping the tables leaves the trigger functions behind; creating the schema again replaces them. */
    @Test
    void tablesDroppedByHandAreCreatedAgainOverTheLeftoverFunctions() throws Exception {
        one.execute("DROP TABLE " + t.filesName() + ", " + t.scansName() + ", " + t.schemaName() + ", "
                + t.contentsName() + ", " + t.changesName() + ", " + t.changeDirsName() + ", " + t.feedName() + ", "
                + t.scopesName() + ", " + prefix + "scan_ids");

        try (FsIndex index = db.builder(prefix).build()) {
            assertThat(index.info(1).schemaVersion()).isEqualTo(SchemaManager.CURRENT_VERSION);
        }
        long again = one.newScan();
        assertForeignKeyViolation(() -> insert(one, 987_654_321L, "orphan", "FILE", again));
    }

    private long foreignKeysOfFiles(FsTables tables) throws SQLException {
        return one.queryLong("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = ?::regclass",
                tables.filesName());
    }

    private long insert(PgSession session, Long parent, String name, String kind, long scanId) throws SQLException {
        return session.queryLong("INSERT INTO " + t.filesName() + " (parent, name, kind, scan_id)"
                + " VALUES (?, ?, ?, ?) RETURNING id", parent, name, kind, scanId);
    }

    private interface Statement {
        void run() throws Exception;
    }

    private static void assertForeignKeyViolation(Statement statement) {
        assertThatThrownBy(statement::run).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23503"));
    }
}
