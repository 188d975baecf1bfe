package io.fsindex.core.feed;

import io.fsindex.core.internal.Sql;
import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import io.fsindex.api.FileKind;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Consumer;

/** Reads rows of the change feed back as {@link Change}s. */
public final class FeedReader {
    private FeedReader() {
    }

    /** Hands each change numbered after {@code after} and up to {@code upTo} to {@code sink}, in order. */
    public static void read(Sql.Bound readChanges, long after, long upTo, Consumer<Change> sink) throws SQLException {
        try (ResultSet rs = readChanges.set("after", after).set("upto", upTo).statement.executeQuery()) {
            while (rs.next()) {
                sink.accept(change(rs));
            }
        }
    }

    /** The change on the result's current row, read by the column names the feed's tables give them. */
    private static Change change(ResultSet rs) throws SQLException {
        String dir = rs.getString("path");
        String name = rs.getString("name");
        String previous = rs.getString("previous_path");
        return new Change(rs.getLong("seq"), rs.getLong("entry"), ChangeType.valueOf(rs.getString("change_type")),
                FileKind.valueOf(rs.getString("kind")), dir == null ? Path.of(name) : Path.of(dir, name),
                previous == null ? null : Path.of(previous), rs.getLong("scan_id"),
                Instant.ofEpochMilli(rs.getLong("at")));
    }
}
