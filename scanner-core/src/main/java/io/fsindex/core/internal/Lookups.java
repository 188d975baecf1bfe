package io.fsindex.core.internal;

import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.core.write.Row;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The statements of a lookup by path (the row at the end of a chain of names, then its entry), written as plain SQL:
 * the text jOOQ renders for each built-in dialect, and standard SQL any engine reads. So opening an index and
 * answering a first lookup load none of jOOQ, which costs a fresh JVM more than everything else they do.
 */
public final class Lookups {
    /** The live row {@code :id}: {@link Statements#FILE_COLUMNS}, then fingerprint and content hash. */
    private final Sql byId;
    /**
     * The most names one {@link #path} statement follows: a longer path takes a statement per this many names, so that
     * no statement joins more tables than an engine takes (SQLite 64, MySQL 61) or plans slowly.
     */
    public static final int PATH_NAMES = 16;
    private final String files;
    /** {@link #path} statements by whether they start at the top and by how many names they follow, built as asked. */
    private final Sql[][] paths = new Sql[2][PATH_NAMES + 1];

    /** The lookup's statements for the tables {@code names} names. */
    public Lookups(TableNames names) {
        // Statements.FILE_COLUMNS spelled out: reading that field would initialise Statements, whose static tables
        // (every insert's parameter names) a fresh JVM's first lookup would then build for nothing.
        files = names.filesName();
        byId = Sql.parse("select " + String.join(", ", Row.COLUMNS.stream().map(c -> "r." + c).toList())
                + ", r.fingerprint, r.content_hash from " + names.filesName()
                + " as r where (r.id = :id and r.gone_at is null)");
    }

    /**
     * The live row reached by following {@code names} (1 to {@link #PATH_NAMES}) names from the top
     * ({@code fromTop}, the first a top-level row's) or from row {@code :parent}, each name below the last, every row
     * on the way live: {@link Statements#FILE_COLUMNS}, then fingerprint and content hash, as {@link #byId}. One
     * statement instead of one per name: on a server each name would be a round trip. Bind {@link #nameParameter}s.
     */
    public synchronized Sql path(boolean fromTop, int names) {
        if (names < 1 || names > PATH_NAMES) {
            throw new IllegalArgumentException("a path statement follows 1 to " + PATH_NAMES + " names, not " + names);
        }
        Sql[] shapes = paths[fromTop ? 0 : 1];
        if (shapes[names] == null) {
            String last = "l" + names;
            StringBuilder sql = new StringBuilder("select ")
                    .append(String.join(", ", Row.COLUMNS.stream().map(c -> last + "." + c).toList()))
                    .append(", ").append(last).append(".fingerprint, ").append(last).append(".content_hash from ")
                    .append(files).append(" as l1");
            for (int i = 2; i <= names; i++) {
                sql.append(" join ").append(files).append(" as l").append(i).append(" on (l").append(i)
                        .append(".parent = l").append(i - 1).append(".id and l").append(i).append(".name = :")
                        .append(nameParameter(i - 1)).append(" and l").append(i).append(".gone_at is null)");
            }
            sql.append(" where (l1.parent ").append(fromTop ? "is null" : "= :parent").append(" and l1.name = :")
                    .append(nameParameter(0)).append(" and l1.gone_at is null)");
            shapes[names] = Sql.parse(sql.toString());
        }
        return shapes[names];
    }

    /** The parameter of a {@link #path} statement's name {@code i} (from 0). */
    public static String nameParameter(int i) {
        return "n" + i;
    }

    /** The live row {@code :id} with its content values, for a lookup by id that reads the path too. */
    public Sql byId() {
        return byId;
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
