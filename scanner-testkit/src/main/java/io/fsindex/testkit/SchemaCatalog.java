package io.fsindex.testkit;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the JDBC driver's metadata says about an index's tables, one line per fact, with the table prefix written
 * {@code ${prefix}}, so that two indexes' catalogs compare equal exactly when their tables were made alike: the
 * tables, their columns in order with type, size, nullability, default and generation, primary keys, indexes with
 * their columns, order and condition, foreign keys with their rules, and the rows of the tables fsindex fills when it
 * creates them.
 */
final class SchemaCatalog {
    /** The tables fsindex fills with their first rows when it creates them. */
    private static final List<String> SEEDED_TABLES = List.of("schema", "feed", "scan_ids");

    private SchemaCatalog() {
    }

    /** The catalog of the tables whose names start with {@code prefix}, in any case, sorted. */
    static List<String> of(Connection c, String prefix) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        TreeSet<String> facts = new TreeSet<>();
        for (String table : RawIndex.tableNames(c, prefix)) {
            String at = "table " + table;
            facts.add(at);
            try (ResultSet rs = md.getColumns(c.getCatalog(), c.getSchema(), table, null)) {
                facts.addAll(rows(rs, at + " column", "ORDINAL_POSITION", "COLUMN_NAME", "TYPE_NAME", "COLUMN_SIZE",
                        "DECIMAL_DIGITS", "NULLABLE", "COLUMN_DEF", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"));
            }
            try (ResultSet rs = md.getPrimaryKeys(c.getCatalog(), c.getSchema(), table)) {
                facts.addAll(rows(rs, at + " primary key", "KEY_SEQ", "COLUMN_NAME"));
            }
            try (ResultSet rs = md.getIndexInfo(c.getCatalog(), c.getSchema(), table, false, false)) {
                facts.addAll(rows(rs, at + " index", "INDEX_NAME", "NON_UNIQUE", "TYPE", "ORDINAL_POSITION",
                        "COLUMN_NAME", "ASC_OR_DESC", "FILTER_CONDITION"));
            }
            try (ResultSet rs = md.getImportedKeys(c.getCatalog(), c.getSchema(), table)) {
                facts.addAll(rows(rs, at + " foreign key", "FK_NAME", "KEY_SEQ", "FKCOLUMN_NAME", "PKTABLE_NAME",
                        "PKCOLUMN_NAME", "UPDATE_RULE", "DELETE_RULE", "DEFERRABILITY"));
            }
            String suffix = table.substring(prefix.length()).toLowerCase(Locale.ROOT);
            if (SEEDED_TABLES.contains(suffix)) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
                    facts.addAll(rows(rs, at + " row", null));
                }
            }
        }
        List<String> named = new ArrayList<>();
        for (String fact : facts) {
            named.add(withoutPrefix(fact, prefix));
        }
        return named;
    }

    /** {@code text} with {@code prefix} written {@code ${prefix}}, in whatever case the engine stores names. */
    static String withoutPrefix(String text, String prefix) {
        return text.replaceAll("(?i)" + Pattern.quote(prefix), "\\${prefix}");
    }

    /** Each row as {@code label} and its columns' values, the named ones (or all of them, if none is named). */
    private static List<String> rows(ResultSet rs, String label, String first, String... more) throws SQLException {
        List<String> columns = new ArrayList<>();
        if (first == null) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnLabel(i));
            }
        } else {
            columns.add(first);
            columns.addAll(List.of(more));
        }
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            StringBuilder line = new StringBuilder(label);
            for (String column : columns) {
                line.append(' ').append(column.toLowerCase(Locale.ROOT)).append('=').append(rs.getString(column));
            }
            out.add(line.toString());
        }
        return out;
    }
}
