package io.fsindex.core.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements one piece of work runs on its own connection (a scan, a page of finds), each prepared once for the
 * whole of it and closed when it ends, with the helpers that bind lists of ids or names to them.
 */
public final class ConnectionStatements implements AutoCloseable {
    /** How many rows one executeBatch sends at most, so a huge directory's batch never holds all its rows. */
    public static final int BATCH_ROWS = 2_048;

    private final Connection c;
    /** Each statement prepared once on {@link #c}; closed by {@link #close}. */
    private final Map<Sql, Sql.Bound> prepared = new IdentityHashMap<>();

    public ConnectionStatements(Connection c) {
        this.c = c;
    }

    /** The statement prepared on this connection, with no batch left over from a failed attempt. */
    public Sql.Bound q(Sql sql) throws SQLException {
        Sql.Bound b = prepared.get(sql);
        if (b == null) {
            b = sql.prepare(c);
            prepared.put(sql, b);
        } else {
            b.statement.clearBatch();
        }
        return b;
    }

    /** The statement as prepared before, with whatever batch it holds; {@link #q} must have prepared it. */
    public Sql.Bound current(Sql sql) {
        return prepared.get(sql);
    }

    /** Statement {@code sql} for {@code count} directory ids, prepared once per list length, with the ids bound. */
    public Sql.Bound forIds(Statements.ForIds<Long> sql, long[] ids, int count) throws SQLException {
        return Statements.ForIds.bind(q(sql.forCount(count)), ids, count);
    }

    /** Statement {@code sql} for directory {@code dir} and {@code count} names, with both bound. */
    public Sql.Bound forNames(Statements.ForIds<String> sql, long dir, String[] names, int count)
            throws SQLException {
        return Statements.ForIds.bind(q(sql.forCount(count)), names, count).set("dir", dir);
    }

    /** Runs {@code each} for every piece of {@code names} one names statement takes, with the piece and its length. */
    public static void inPieces(List<String> names, Statements.ForIds<String> sql, NamesPiece each)
            throws SQLException {
        String[] piece = new String[sql.max()];
        for (int from = 0; from < names.size(); from += piece.length) {
            int n = Math.min(piece.length, names.size() - from);
            for (int i = 0; i < n; i++) {
                piece[i] = names.get(from + i);
            }
            each.run(piece, n);
        }
    }

    /** One piece of names, as {@link #inPieces} hands it on. */
    public interface NamesPiece {
        void run(String[] names, int count) throws SQLException;
    }

    /** Closes every prepared statement. */
    @Override
    public void close() {
        for (Sql.Bound b : prepared.values()) {
            try {
                b.close();
            } catch (SQLException ignored) {
                // The connection is closed right after the work anyway, which closes what is left.
            }
        }
        prepared.clear();
    }
}
