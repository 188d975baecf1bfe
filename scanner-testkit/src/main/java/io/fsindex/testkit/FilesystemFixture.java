package io.fsindex.testkit;

import io.fsindex.api.FileKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the real-filesystem suites share: a guard for tests a wrong implementation would hang, and reads of the
 * {@code <prefix>files} table that walk names literally: the index's own {@code lookup} resolves a path's parent to its
 * real path, which would answer for a link's target instead of the rows recorded under the link.
 */
public abstract class FilesystemFixture extends IndexTest {

    /** Guards the tests where a wrong implementation would block forever (opening a FIFO, following a loop). */
    static final Duration HANG_GUARD = Duration.ofSeconds(60);

    /** One row of the files table. */
    record StoredRow(long id, FileKind kind, long size, long mtimeNanos, String linkTarget) {
    }

    Optional<StoredRow> row(String relative, Path root) {
        return stored(root.resolve(relative));
    }

    /** The row recorded at {@code path}, found name by name from the filesystem root, following no link. */
    Optional<StoredRow> stored(Path path) {
        return withConnection(c -> {
            Long parent = null;
            StoredRow row = null;
            List<String> names = new ArrayList<>();
            names.add(path.getRoot().toString());
            path.forEach(name -> names.add(name.toString()));
            for (String name : names) {
                String sql = "SELECT id, kind, size, mtime, link_target FROM " + prefix() + "files WHERE name = ?"
                        + " AND gone_at IS NULL AND "
                        + (parent == null ? "parent IS NULL" : "parent = ?");
                try (PreparedStatement s = c.prepareStatement(sql)) {
                    s.setString(1, name);
                    if (parent != null) {
                        s.setLong(2, parent);
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.empty();
                        }
                        row = new StoredRow(rs.getLong(1), FileKind.valueOf(rs.getString(2)), rs.getLong(3),
                                rs.getLong(4), rs.getString(5));
                        parent = row.id();
                    }
                }
            }
            return Optional.ofNullable(row);
        });
    }

    /** The names of the rows recorded below the row at {@code path} (see {@link #stored}). */
    List<String> storedChildren(Path path) {
        Optional<StoredRow> dir = stored(path);
        if (dir.isEmpty()) {
            return List.of();
        }
        return withConnection(c -> {
            List<String> names = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT name FROM " + prefix() + "files WHERE parent = ?")) {
                s.setLong(1, dir.get().id());
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
            }
            return names;
        });
    }

    private interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T withConnection(SqlWork<T> work) {
        TestDatabase db = database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            return work.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the index's rows: " + e.getMessage(), e);
        }
    }

    static boolean runningAsRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
