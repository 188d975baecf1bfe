package io.fsindex.postgres;

import io.fsindex.core.spi.BulkLoader;
import io.fsindex.core.spi.FsTables;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;

/** PostgreSQL's bulk loader: new rows and their change rows go in by {@code COPY FROM STDIN}. */
final class PostgresCopyLoader {
    private PostgresCopyLoader() {
    }

    /**
     * New children of a directory the scan inserted itself go in by {@code COPY FROM STDIN}, one round trip for a
     * whole wave, instead of multi-row {@code INSERT … ON CONFLICT} statements, which costs
     * the server less time per row.
     * Their ids come first from the identity's sequence, one statement for the wave, so the scan need not read new
     * directories back to claim them, and the change feed's rows follow by {@code COPY} too.
     */
    static BulkLoader forTables(FsTables t) {
        String copy = copyInto(t.filesName(), BulkLoader.columns(t));
        String copyChanges = copyInto(t.changesName(), BulkLoader.changeColumns(t));
        return new BulkLoader() {
            /** {@code nextval} of the identity's sequence, whose name PostgreSQL is asked once, not assumed. */
            private volatile String newIdsSql;

            @Override
            public long[] newIds(Connection c, int count) throws SQLException {
                long[] ids = new long[count];
                int taken = 0;
                try (PreparedStatement s = c.prepareStatement(newIdsStatement(c))) {
                    s.setInt(1, count);
                    try (ResultSet rs = s.executeQuery()) {
                        while (taken < count && rs.next()) {
                            ids[taken++] = rs.getLong(1);
                        }
                    }
                }
                if (taken < count) {
                    // A missing id would go in as 0 and collide later; never load rows without their ids.
                    throw new SQLException("the sequence of " + t.filesName() + " gave " + taken + " of " + count
                            + " ids");
                }
                return ids;
            }

            private String newIdsStatement(Connection c) throws SQLException {
                if (newIdsSql == null) {
                    try (PreparedStatement s = c.prepareStatement("SELECT pg_get_serial_sequence(?, 'id')")) {
                        s.setString(1, t.filesName());
                        try (ResultSet rs = s.executeQuery()) {
                            String sequence = rs.next() ? rs.getString(1) : null;
                            if (sequence == null) {
                                throw new SQLException(t.filesName() + ".id has no sequence to take ids from");
                            }
                            newIdsSql = "SELECT nextval('" + sequence.replace("'", "''")
                                    + "') FROM generate_series(1, ?)";
                        }
                    }
                }
                return newIdsSql;
            }

            @Override
            public long load(Connection c, InputStream text) throws SQLException {
                return copyIn(c, copy, text);
            }

            @Override
            public void loadChanges(Connection c, InputStream text) throws SQLException {
                copyIn(c, copyChanges, text);
            }
        };
    }

    private static long copyIn(Connection c, String copy, InputStream text) throws SQLException {
        try {
            return c.unwrap(PGConnection.class).getCopyAPI().copyIn(copy, text);
        } catch (IOException e) {
            throw new SQLException("cannot send rows to " + copy + ": " + e.getMessage(), e);
        }
    }

    /** A {@code COPY} statement of {@link #forTables}: into {@code table}, {@code columns} in their order. */
    static String copyInto(String table, java.util.List<org.jooq.Field<?>> columns) {
        return "COPY " + table + " (" + columns.stream().map(org.jooq.Field::getName)
                .collect(Collectors.joining(", ")) + ") FROM STDIN";
    }
}
