package io.fsindex.core.content;

import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The database side of content hashing for one scan, on the scan's connection between its write transactions: which
 * file rows of a directory still lack a value, and storing values only where the row still records the size and
 * mtime the content was read with.
 */
public final class ContentStore {
    /** How often storing is tried again after the collector deleted a content row it was about to reference. */
    static final int FK_RETRIES = 10;

    /** A file row still lacking a value. */
    record Unhashed(long id, String name, long size, long mtime) {
    }

    /** Values read for a row, with the size and mtime they were read at; {@code hash} null for a fingerprint only. */
    record Hashed(long id, long size, long mtime, String fingerprint, String hash) {
    }

    private final Database db;
    private final ContentStatements st;
    private final Connection c;

    public ContentStore(Database db, ContentStatements st, Connection c) {
        this.db = db;
        this.st = st;
        this.c = c;
    }

    /**
     * Up to {@link ContentStatements#PAGE} FILE rows below {@code dir} named after {@code after} (the empty string for
     * the first page), by name.
     */
    List<Unhashed> unhashed(long dir, String after, boolean full) throws SQLException {
        List<Unhashed> out = new ArrayList<>();
        try (Sql.Bound q = (full ? st.unhashed : st.unfingerprinted).prepare(c)) {
            q.set("dir", dir).set("after", after);
            try (ResultSet rs = q.statement.executeQuery()) {
                while (rs.next()) {
                    out.add(new Unhashed(rs.getLong("id"), rs.getString("name"), rs.getLong("size"),
                            rs.getLong("mtime")));
                }
            }
        }
        return out;
    }

    /**
     * Stores the values in one write transaction; a row that changed meanwhile takes none.
     * Content rows are upserted in hash order, so two scans storing the same contents lock them in the same order.
     * Should the collector delete a content row between its upsert and the file update that references it, the
     * update fails on the foreign key and the whole transaction runs again, inserting the row anew.
     */
    void store(List<Hashed> values) throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        List<Hashed> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.comparing(h -> h.hash() == null ? "" : h.hash()));
        for (int attempt = 1; ; attempt++) {
            try {
                db.write(c, conn -> write(sorted));
                return;
            } catch (SQLException e) {
                if (attempt >= FK_RETRIES || !Constraints.isForeignKeyViolation(e)) {
                    throw e;
                }
            }
        }
    }

    private Void write(List<Hashed> values) throws SQLException {
        long now = System.currentTimeMillis();
        try (Sql.Bound content = st.upsertContent.prepare(c);
             Sql.Bound full = st.storeFull.prepare(c);
             Sql.Bound fingerprint = st.storeFingerprint.prepare(c)) {
            String last = null;
            for (Hashed h : values) {
                if (h.hash() != null && !h.hash().equals(last)) {
                    content.set("hash", h.hash()).set("size", h.size()).set("now", now).statement.executeUpdate();
                    last = h.hash();
                }
            }
            // As batches: a server gets a page's updates in one go (MariaDB's driver pipelines them) instead of one
            // round trip per file.
            for (Hashed h : values) {
                Sql.Bound q = h.hash() != null ? full.set("hash", h.hash()) : fingerprint;
                q.set("fingerprint", h.fingerprint()).set("id", h.id()).set("size", h.size())
                        .set("mtime", h.mtime()).statement.addBatch();
            }
            full.statement.executeBatch();
            fingerprint.statement.executeBatch();
        }
        return null;
    }
}
