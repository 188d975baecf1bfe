package io.fsindex.core.internal;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.core.write.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The statements of a lookup by path (a row by name, component by component, then its entry), written as plain SQL:
 * the text jOOQ renders for each built-in dialect, and standard SQL any engine reads. So opening an index and
 * answering a first lookup load none of jOOQ, which costs a fresh JVM more than everything else they do.
 */
public final class Lookups {
    /** A top-level row by {@code :name}, in {@link Statements#FILE_COLUMNS} order. */
    public final Sql selectTopLevel;
    /** The row named {@code :name} below {@code :parent}, in {@link Statements#FILE_COLUMNS} order. */
    public final Sql selectChild;
    /** The live row {@code :id}: {@link Statements#FILE_COLUMNS}, then fingerprint and content hash. */
    private final Sql byId;

    /** The lookup's statements for the tables {@code names} names. */
    public Lookups(TableNames names) {
        // Statements.FILE_COLUMNS spelled out: reading that field would initialise Statements, whose static tables
        // (every insert's parameter names) a fresh JVM's first lookup would then build for nothing.
        String rows = "select " + String.join(", ", Row.COLUMNS) + " from " + names.filesName();
        selectTopLevel = Sql.parse(rows + " where (parent is null and name = :name)");
        selectChild = Sql.parse(rows + " where (parent = :parent and name = :name)");
        byId = Sql.parse("select " + String.join(", ", Row.COLUMNS.stream().map(c -> "r." + c).toList())
                + ", r.fingerprint, r.content_hash from " + names.filesName()
                + " as r where (r.id = :id and r.gone_at is null)");
    }

    /** The statement of {@link #byId(Connection, long, Path)}, for a lookup by id that reads the path too. */
    public Sql byId() {
        return byId;
    }

    /** The entry of row {@code id} at {@code path}, with its content values; empty if it has left the index. */
    public Optional<FileEntry> byId(Connection c, long id, Path path) throws SQLException {
        try (Sql.Bound q = byId.prepare(c)) {
            q.set("id", id);
            try (ResultSet rs = q.statement.executeQuery()) {
                return rs.next() ? Optional.of(entryAt(rs, path)) : Optional.empty();
            }
        }
    }

    /**
     * The entry of the row {@code rs} is on, read in {@link #byId}'s column order ({@link Row#COLUMNS}, then
     * fingerprint and content hash), at {@code path}.
     */
    public static FileEntry entryAt(ResultSet rs, Path path) throws SQLException {
        return StoredEntry.read(rs).at(path);
    }

    /** A row with its content values, read in {@link #byId}'s column order, before its path is known. */
    public record StoredEntry(Row row, String fingerprint, String contentHash) {
        /** The row {@code rs} is on: {@link Row#COLUMNS}, then fingerprint and content hash. */
        public static StoredEntry read(ResultSet rs) throws SQLException {
            int contentValues = Row.COLUMNS.size();
            return new StoredEntry(Row.read(rs), rs.getString(contentValues + 1), rs.getString(contentValues + 2));
        }

        /** The entry at {@code path}. */
        public FileEntry at(Path path) {
            return new FileEntry(row.id(), row.parent(), path, FileKind.valueOf(row.kind()), row.size(), row.mtime(),
                    row.linkTarget(), row.scanId(), row.stale(), row.fileKey(), fingerprint, contentHash);
        }
    }
}
