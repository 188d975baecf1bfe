package io.fsindex.innodb;

import io.fsindex.testkit.RawIndex;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What MySQL and MariaDB say about a table beyond the JDBC metadata (checks, character sets and collations, generated
 * columns, table options): the lines of {@code SHOW CREATE TABLE} for each of an index's tables, without the names
 * MySQL makes up for unnamed checks ({@code <table>_chk_<n>}, numbered in the order they were added) and without the
 * commas that depend on a line's place. A check's string literals lose their character set introducer
 * ({@code _utf8mb4'FILE'}): MySQL writes the connection's when it creates a check and the column's when an
 * {@code ALTER TABLE} rebuilds the table, which compares the same. The order of a table's keys is a fact of its own,
 * since the comparison sorts the lines and the optimizer may break a tie between two keys by it.
 */
final class InnoDbCatalog {
    /** A key's line, its name in the group: {@code KEY `files_tree` (...)}, {@code UNIQUE KEY ...}, and so on. */
    private static final Pattern KEY = Pattern.compile("(PRIMARY) KEY|(?:UNIQUE |FULLTEXT |SPATIAL )?KEY (`[^`]*`)");

    private InnoDbCatalog() {
    }

    /** The lines for the tables whose names start with {@code prefix}, each led by its table's name. */
    static List<String> of(Connection c, String prefix) throws SQLException {
        List<String> lines = new ArrayList<>();
        for (String table : RawIndex.tableNames(c, prefix)) {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW CREATE TABLE `" + table + "`")) {
                rs.next();
                List<String> keys = new ArrayList<>();
                for (String line : rs.getString(2).split("\n")) {
                    String fact = line.strip().replaceAll(",$", "")
                            .replaceAll("CONSTRAINT `[^`]*_chk_\\d+` ", "CONSTRAINT ")
                            .replaceAll("_(utf8mb4|ascii)'", "'");
                    lines.add(table + ": " + fact);
                    Matcher key = KEY.matcher(fact);
                    if (key.lookingAt()) {
                        keys.add(key.group(1) != null ? key.group(1) : key.group(2));
                    }
                }
                lines.add(table + ": keys in order " + String.join(", ", keys));
            }
        }
        return lines;
    }
}
