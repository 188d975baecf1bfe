package io.fsindex.sqlite;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prepared statements of one connection kept for reuse ({@link IdleConnections}), by their SQL, kept across its
 * users: SQLite plans a statement when it is prepared, which for a lookup's few rows costs more than running it.
 *
 * <p>A statement is kept when its user closes it, in the state a new one starts in: its result set closed (which
 * resets it, so it holds no read snapshot), no parameters, no batch, no row limit. At most {@link #MAX} are kept, the
 * least recently used closed first. Used by one thread at a time, as its connection is.
 */
final class KeptStatements {
    /** How many statements one connection keeps. */
    static final int MAX = 64;

    private final Connection real;
    private final Map<String, PreparedStatement> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= MAX) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    KeptStatements(Connection real) {
        this.real = real;
    }

    /** A statement for {@code sql} on behalf of {@code owner}, kept or new, whose {@code close} keeps it. */
    PreparedStatement prepare(Connection owner, String sql) throws SQLException {
        PreparedStatement statement = kept.remove(sql);
        if (statement == null) {
            statement = real.prepareStatement(sql);
        }
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, new Lent(owner, sql, statement));
    }

    private static void closeQuietly(PreparedStatement s) {
        try {
            s.close();
        } catch (SQLException e) {
            // a statement no one uses any more: its connection's close finalizes it anyway
        }
    }

    /** A statement lent: everything goes to the real one, but {@code close} resets it and keeps it. */
    private final class Lent extends GivenBack<PreparedStatement> {
        private final Connection owner;
        private final String sql;
        private ResultSet results;
        private boolean limited;

        Lent(Connection owner, String sql, PreparedStatement real) {
            super(real);
            this.owner = owner;
            this.sql = sql;
        }

        @Override
        Object call(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "getConnection":
                    return owner;
                case "setMaxRows":
                case "setLargeMaxRows":
                    limited = true;
                    break;
                default:
                    break;
            }
            Object result = super.call(proxy, method, args);
            if (result instanceof ResultSet rs) {
                results = rs;
            }
            return result;
        }

        /** Keeps the statement reset for the next user of its SQL, or closes it. */
        @Override
        void giveBack() throws SQLException {
            boolean reusable = false;
            try {
                if (results != null) {
                    results.close();
                }
                if (!real.isClosed() && !owner.isClosed()) {
                    real.clearParameters();
                    real.clearBatch();
                    if (limited) {
                        real.setMaxRows(0);
                    }
                    reusable = !kept.containsKey(sql);
                }
            } finally {
                if (reusable) {
                    kept.put(sql, real);
                } else {
                    real.close();
                }
            }
        }
    }
}
