package io.fsindex.core.write;

import io.fsindex.core.internal.Statements;
import io.fsindex.api.FileEntry;
import io.fsindex.api.FileKind;
import io.fsindex.api.FileStat;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/** One row of the file table, as read by {@link Statements#FILE_COLUMNS}'s select order. */
public record Row(long id, long parent, String name, String kind, long size, long mtime, String linkTarget, long scanId,
           long listedBy, boolean stale, Long fileKey, long goneAt) {

    /**
     * The columns {@link #read} reads, in the order it reads them by position: every select whose rows it reads
     * lists them from here ({@link Statements#FILE_COLUMNS}, jOOQ's selects of file rows, the lookups' plain SQL).
     */
    public static final List<String> COLUMNS = List.of("id", "parent", "name", "kind", "size", "mtime", "link_target",
            "scan_id", "listed_by", "stale", "file_key", "gone_at");

    /*
     * Each column's position in a result whose first columns are COLUMNS: hot paths read rows by position (a lookup
     * by name per row would cost), and these tie every such read to the one list.
     */
    static final int ID = position("id"), PARENT = position("parent"), NAME = position("name"),
            KIND = position("kind"), SIZE = position("size"), MTIME = position("mtime"),
            LINK_TARGET = position("link_target"), SCAN_ID = position("scan_id"), LISTED_BY = position("listed_by"),
            STALE = position("stale"), FILE_KEY = position("file_key"), GONE_AT = position("gone_at");

    private static int position(String column) {
        int index = COLUMNS.indexOf(column);
        if (index < 0) {
            throw new IllegalStateException("no column " + column + " in " + COLUMNS);
        }
        return index + 1;
    }

    /** The row {@code rs} is on, whose first columns are {@link #COLUMNS} in order. */
    public static Row read(ResultSet rs) throws SQLException {
        return new Row(rs.getLong(ID), rs.getLong(PARENT), rs.getString(NAME), rs.getString(KIND), rs.getLong(SIZE),
                rs.getLong(MTIME), rs.getString(LINK_TARGET), rs.getLong(SCAN_ID), rs.getLong(LISTED_BY),
                rs.getInt(STALE) != 0, nullableLong(rs, FILE_KEY), rs.getLong(GONE_AT));
    }

    public boolean isDirectory() {
        return FileKind.DIRECTORY.name().equals(kind);
    }

    /** Column {@code column} as a Long, null for SQL NULL. */
    static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    /** True if the row is an orphan: its entry was found gone and the row is kept only for move detection. */
    public boolean orphan() {
        return goneAt != 0;
    }

    /** Returns true if the row already records exactly these attributes. */
    boolean sameAs(FileStat stat) {
        return kind.equals(stat.kind().name()) && size == stat.size() && mtime == stat.mtimeNanos()
                && Objects.equals(linkTarget, stat.linkTarget());
    }

    FileEntry toEntry(Path path) {
        return new FileEntry(id, parent, path, FileKind.valueOf(kind), size, mtime, linkTarget, scanId, stale);
    }
}
