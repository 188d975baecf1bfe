package io.fsindex.core.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.Query;

/**
 * A statement rendered once by jOOQ with named parameters and turned into positional JDBC SQL, so a statement is
 * prepared once per connection and bound by name per row.
 */
public final class Sql {
    private final String sql;
    private final Map<String, int[]> positions;

    private Sql(String sql, Map<String, int[]> positions) {
        this.sql = sql;
        this.positions = positions;
    }

    public static Sql render(DSLContext ctx, Query query) {
        return parse(ctx.renderNamedParams(query));
    }

    /** Replaces each {@code :name} outside quotes with {@code ?}, remembering which positions carry which name. */
    static Sql parse(String named) {
        StringBuilder out = new StringBuilder(named.length());
        Map<String, List<Integer>> found = new HashMap<>();
        int index = 0;
        for (int i = 0; i < named.length(); i++) {
            char c = named.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = named.indexOf(c, i + 1);
                while (end > 0 && end + 1 < named.length() && named.charAt(end + 1) == c) {
                    end = named.indexOf(c, end + 2);
                }
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated quote in " + named);
                }
                out.append(named, i, end + 1);
                i = end;
            } else if (c == ':' && i + 1 < named.length() && named.charAt(i + 1) == ':') {
                out.append("::");
                i++;
            } else if (c == ':' && i + 1 < named.length() && Character.isJavaIdentifierStart(named.charAt(i + 1))) {
                int end = i + 1;
                while (end < named.length() && Character.isJavaIdentifierPart(named.charAt(end))) {
                    end++;
                }
                found.computeIfAbsent(named.substring(i + 1, end), k -> new ArrayList<>()).add(++index);
                out.append('?');
                i = end - 1;
            } else if (c == ':' && i + 1 < named.length() && Character.isDigit(named.charAt(i + 1))) {
                throw new IllegalArgumentException("unnamed parameter in " + named + "; name every parameter");
            } else {
                out.append(c);
            }
        }
        Map<String, int[]> positions = new HashMap<>();
        found.forEach((k, v) -> positions.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
        return new Sql(out.toString(), positions);
    }

    String sql() {
        return sql;
    }

    public Bound prepare(Connection c) throws SQLException {
        return new Bound(c.prepareStatement(sql));
    }

    public Bound prepareReturningId(Connection c) throws SQLException {
        return new Bound(c.prepareStatement(sql, new String[] {"id"}));
    }

    @Override
    public String toString() {
        return sql;
    }

    /** A prepared statement that binds parameters by name. */
    public final class Bound implements AutoCloseable {
        public final PreparedStatement statement;

        Bound(PreparedStatement statement) {
            this.statement = statement;
        }

        public Bound set(String name, long value) throws SQLException {
            for (int p : positionsOf(name)) {
                statement.setLong(p, value);
            }
            return this;
        }

        public Bound set(String name, Long value) throws SQLException {
            if (value != null) {
                return set(name, value.longValue());
            }
            for (int p : positionsOf(name)) {
                statement.setNull(p, java.sql.Types.BIGINT);
            }
            return this;
        }

        public Bound set(String name, String value) throws SQLException {
            for (int p : positionsOf(name)) {
                if (value == null) {
                    statement.setNull(p, java.sql.Types.VARCHAR);
                } else {
                    statement.setString(p, value);
                }
            }
            return this;
        }

        private int[] positionsOf(String name) {
            int[] p = positions.get(name);
            if (p == null) {
                throw new IllegalArgumentException("no parameter :" + name + " in " + sql);
            }
            return p;
        }

        public boolean has(String name) {
            return positions.containsKey(name);
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }
}
