package io.fsindex.core.content;

import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Sql;
import io.fsindex.api.GarbageCollection;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Deletes content rows nothing references any more, after a grace period ("try to delete, the foreign
 * key decides"). For each content row, inside a savepoint, it deletes the row and lets the database's {@code ON DELETE
 * RESTRICT} foreign keys say whether anything references it: fsindex's file rows or any application table that
 * references {@code contents.hash}, without fsindex knowing those tables.
 * <ul>
 *   <li>A row whose mark ({@code unused_since}) is older than the grace period is deleted for good, if it still
 *   can be (one statement, conditional on the mark as it is when the delete runs).
 *   <li>Otherwise, if the delete succeeds the row is unreferenced: the delete is rolled back to the savepoint and the
 *   row marked now (an existing, younger mark is kept, so the grace period runs from the first time it was found
 *   unused).
 *   <li>If the delete fails on a foreign key, the row is referenced: rolled back to the savepoint, its mark cleared.
 * </ul>
 * Safe while scans and applications write: a reference committed before the delete makes the delete fail; one
 * pending when the delete runs makes the delete wait for it and then fail (or, if it rolls back, succeed); one made
 * after the delete committed finds the row gone, and the writer inserts it again (fsindex's content hashing does).
 * A writer that references a content row clears its mark in the same transaction (fsindex's upsert does), so the
 * grace period starts again. Rows are handled in batches, one retried transaction each; the callback hears of a
 * row only after the batch that deleted it has committed.
 */
public final class GarbageCollector {
    private final Database db;
    private final ContentStatements st;

    public GarbageCollector(Database db, ContentStatements st) {
        this.db = db;
        this.st = st;
    }

    private record Batch(List<String> deleted, long referenced, long marked) {
    }

    public GarbageCollection collect(Duration grace, Consumer<String> onDeleted) throws SQLException {
        long now = System.currentTimeMillis();
        long cutoff = now - grace.toMillis();
        long examined = 0, referenced = 0, marked = 0, deleted = 0;
        try (Connection c = db.connect()) {
            String after = "";
            while (true) {
                List<String> page = page(c, after);
                if (page.isEmpty()) {
                    break;
                }
                Batch b = db.write(c, conn -> collect(conn, page, now, cutoff));
                examined += page.size();
                referenced += b.referenced();
                marked += b.marked();
                deleted += b.deleted().size();
                notify(b.deleted(), onDeleted);
                if (page.size() < ContentStatements.PAGE) {
                    break;
                }
                after = page.get(page.size() - 1);
            }
        }
        return new GarbageCollection(examined, referenced, marked, deleted);
    }

    private List<String> page(Connection c, String after) throws SQLException {
        List<String> hashes = new ArrayList<>();
        try (Sql.Bound q = st.selectContents.prepare(c)) {
            try (ResultSet rs = q.set("after", after).statement.executeQuery()) {
                while (rs.next()) {
                    hashes.add(rs.getString(1));
                }
            }
        }
        return hashes;
    }

    /** One batch, in the caller's transaction; run again from the start if the transaction is retried. */
    private Batch collect(Connection c, List<String> hashes, long now, long cutoff) throws SQLException {
        List<String> deleted = new ArrayList<>();
        long referenced = 0, marked = 0;
        try (Sql.Bound expired = st.deleteExpired.prepare(c);
             Sql.Bound probe = st.deleteContent.prepare(c);
             Sql.Bound mark = st.markUnused.prepare(c);
             Sql.Bound unmark = st.unmark.prepare(c)) {
            for (String hash : hashes) {
                SavePoint sp = SavePoint.set(c);
                try {
                    if (expired.set("hash", hash).set("cutoff", cutoff).statement.executeUpdate() > 0) {
                        sp.release();
                        deleted.add(hash);
                        continue;
                    }
                    // Not marked, or marked too recently (or already gone): is it referenced?
                    int probed = probe.set("hash", hash).statement.executeUpdate();
                    sp.rollback();
                    if (probed > 0) {
                        mark.set("hash", hash).set("now", now).statement.executeUpdate();
                        marked++;
                    }
                } catch (SQLException e) {
                    if (!Constraints.isForeignKeyViolation(e)) {
                        throw e;
                    }
                    sp.rollback();
                    unmark.set("hash", hash).statement.executeUpdate();
                    referenced++;
                }
            }
        }
        return new Batch(deleted, referenced, marked);
    }

    /** Tells the callback of every row deleted; a failing callback still lets the others hear of theirs. */
    private static void notify(List<String> deleted, Consumer<String> onDeleted) {
        RuntimeException failure = null;
        for (String hash : deleted) {
            try {
                onDeleted.accept(hash);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A savepoint in the current transaction. JDBC's own where the driver runs the transaction (auto-commit off);
     * SQL {@code SAVEPOINT} where the dialect runs it with statements and the driver still believes it is in
     * auto-commit mode (SQLite's {@code BEGIN IMMEDIATE}), because a JDBC savepoint there would make the driver
     * start transactions of its own.
     */
    private static final class SavePoint {
        private static final String NAME = "fsindex_gc";
        private final Connection c;
        private final Savepoint jdbc;
        private boolean open = true;

        private SavePoint(Connection c, Savepoint jdbc) {
            this.c = c;
            this.jdbc = jdbc;
        }

        static SavePoint set(Connection c) throws SQLException {
            if (c.getAutoCommit()) {
                execute(c, "SAVEPOINT " + NAME);
                return new SavePoint(c, null);
            }
            return new SavePoint(c, c.setSavepoint(NAME));
        }

        void rollback() throws SQLException {
            if (!open) {
                return;
            }
            if (jdbc != null) {
                c.rollback(jdbc);
                c.releaseSavepoint(jdbc);
            } else {
                execute(c, "ROLLBACK TO SAVEPOINT " + NAME);
                execute(c, "RELEASE SAVEPOINT " + NAME);
            }
            open = false;
        }

        void release() throws SQLException {
            if (!open) {
                return;
            }
            if (jdbc != null) {
                c.releaseSavepoint(jdbc);
            } else {
                execute(c, "RELEASE SAVEPOINT " + NAME);
            }
            open = false;
        }

        private static void execute(Connection c, String sql) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }
    }
}
