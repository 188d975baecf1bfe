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
                String dir = rs.getString(5);
                String name = rs.getString(6);
                String previous = rs.getString(7);
                sink.accept(new Change(rs.getLong(1), rs.getLong(2), ChangeType.valueOf(rs.getString(3)),
                        FileKind.valueOf(rs.getString(4)), dir == null ? Path.of(name) : Path.of(dir, name),
                        previous == null ? null : Path.of(previous), rs.getLong(8),
                        Instant.ofEpochMilli(rs.getLong(9))));
            }
        }
    }
}
