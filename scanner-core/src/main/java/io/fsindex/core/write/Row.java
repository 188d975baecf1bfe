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

    /** The row {@code rs} is on, whose first columns are {@link #COLUMNS} in order (read by position: hot path). */
    public static Row read(ResultSet rs) throws SQLException {
        return new Row(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getLong(5), rs.getLong(6),
                rs.getString(7), rs.getLong(8), rs.getLong(9), rs.getInt(10) != 0, nullableLong(rs, 11),
                rs.getLong(12));
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
