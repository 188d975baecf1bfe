package io.fsindex.sqlite;

import io.fsindex.core.spi.NameSearchIndex;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * SQLite's name search index: an FTS5 table with the trigram tokenizer over the file table's names (external
 * content, so names are not stored twice), kept current by triggers on the file table. FTS5's trigram tables answer
 * {@code LIKE '%run%'} from the index for runs of three characters or more, ignoring ASCII case as LIKE does.
 * Triggers fire for the rows a foreign key's cascade deletes too; an {@code INSERT OR REPLACE} would not fire the
 * delete trigger (unless recursive triggers are on), which is why fsindex never writes rows that way.
 */
final class SqliteNameSearch implements NameSearchIndex {

    @Override
    public boolean exists(Connection c, String t) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            s.setString(1, table(t));
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public List<String> create(String t) {
        String n = table(t);
        String f = t + "files";
        return List.of(
                "CREATE VIRTUAL TABLE IF NOT EXISTS " + n + " USING fts5(name, content='" + f
                        + "', content_rowid='id', tokenize='trigram', detail='none')",
                "CREATE TRIGGER IF NOT EXISTS " + n + "_insert AFTER INSERT ON " + f + " BEGIN"
                        + " INSERT INTO " + n + " (rowid, name) VALUES (new.id, new.name); END",
                "CREATE TRIGGER IF NOT EXISTS " + n + "_delete AFTER DELETE ON " + f + " BEGIN"
                        + " INSERT INTO " + n + " (" + n + ", rowid, name) VALUES ('delete', old.id, old.name); END",
                "CREATE TRIGGER IF NOT EXISTS " + n + "_rename AFTER UPDATE OF name ON " + f
                        + " WHEN old.name IS NOT new.name BEGIN"
                        + " INSERT INTO " + n + " (" + n + ", rowid, name) VALUES ('delete', old.id, old.name);"
                        + " INSERT INTO " + n + " (rowid, name) VALUES (new.id, new.name); END",
                "INSERT INTO " + n + " (" + n + ") VALUES ('rebuild')");
    }

    @Override
    public List<String> drop(String t) {
        String n = table(t);
        return List.of("DROP TRIGGER IF EXISTS " + n + "_insert", "DROP TRIGGER IF EXISTS " + n + "_delete",
                "DROP TRIGGER IF EXISTS " + n + "_rename", "DROP TABLE IF EXISTS " + n);
    }

    @Override
    public Condition nameContains(String t, Field<Long> rowId, Field<String> name, Field<String> likePattern) {
        return DSL.condition("{0} in (select rowid from {1} where {1}.name like {2})", rowId,
                DSL.name(table(t)), likePattern);
    }

    private static String table(String prefix) {
        return prefix + "files_names";
    }
}
