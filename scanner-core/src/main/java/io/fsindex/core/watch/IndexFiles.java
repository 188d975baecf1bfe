package io.fsindex.core.watch;

import io.fsindex.core.scan.RealPaths;
import java.nio.file.Path;
import java.util.List;

/**
 * The files an SQLite index writes (the database, its WAL, shared-memory and journal files): a watch ignores their
 * events, or each scan's commit would call for another scan of their directory.
 */
public final class IndexFiles {
    private IndexFiles() {
    }

    /**
     * The files of the database at {@code jdbcUrl}, if it is an SQLite file; none for a server's database.
     *
     * @param jdbcUrl the URL the index's connections report
     * @return the database file and its companions, as real paths where they exist
     */
    public static List<Path> of(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:sqlite:")) {
            return List.of();
        }
        String file = jdbcUrl.substring("jdbc:sqlite:".length());
        file = file.startsWith("file:") ? file.substring("file:".length()) : file;
        int query = file.indexOf('?');
        file = query < 0 ? file : file.substring(0, query);
        if (file.isEmpty() || file.startsWith(":memory:")) {
            return List.of();
        }
        Path db = RealPaths.resolve(Path.of(file).toAbsolutePath().normalize());
        String name = db.getFileName().toString();
        return List.of(db, db.resolveSibling(name + "-wal"), db.resolveSibling(name + "-shm"),
                db.resolveSibling(name + "-journal"));
    }
}
