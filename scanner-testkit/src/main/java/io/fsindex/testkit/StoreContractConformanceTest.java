package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fsindex.api.FileEntry;
import io.fsindex.api.ChangeType;
import io.fsindex.api.IndexReader;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.SchemaException;
import io.fsindex.core.FsIndex;
import io.fsindex.core.SchemaScripts;
import io.fsindex.core.internal.Database;
import io.fsindex.core.internal.IndexInternals;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The store contract (README, "Store contract") on a real database: the CHECK constraints refuse malformed rows
 * written past fsindex, the read-only handle reads but cannot write (through its API or its connections), and an
 * application's own table referencing the files table behaves as documented for ON DELETE CASCADE and RESTRICT.
 */
public abstract class StoreContractConformanceTest extends IndexTest {
    private static final String HASH = "a".repeat(64);

    private RawIndex raw() {
        return new RawIndex(database(), prefix());
    }

    private long idOf(FsIndex index, Path path) {
        return index.lookup(path).map(FileEntry::id).orElseThrow();
    }

    private void assertRejected(String sql) {
        assertThatThrownBy(() -> raw().update(sql)).as(sql).isInstanceOf(SQLException.class);
    }

    @Test
    void malformedRowsWrittenPastFsindexAreRejected() throws Exception {
        FsIndex index = openIndex();
        Path root = tree("a.txt", "d/");
        index.scan(root);
        long file = idOf(index, root.resolve("a.txt"));
        long dir = idOf(index, root.resolve("d"));
        raw().update("INSERT INTO ${prefix}contents (hash, size, created_at) VALUES ('" + HASH + "', 1, 1)");

        assertRejected("UPDATE ${prefix}files SET size = -1 WHERE id = " + file);
        assertRejected("UPDATE ${prefix}files SET kind = 'BOGUS' WHERE id = " + file);
        assertRejected("UPDATE ${prefix}files SET stale = 2 WHERE id = " + file);
        assertRejected("UPDATE ${prefix}files SET fingerprint = 'not hex' WHERE id = " + file);
        assertRejected("UPDATE ${prefix}files SET content_hash = '" + HASH + "' WHERE id = " + dir);
        assertRejected("UPDATE ${prefix}files SET fingerprint = '" + HASH + "' WHERE id = " + dir);
        assertRejected("UPDATE ${prefix}files SET gone_at = 0 WHERE id = " + file);
        assertRejected("INSERT INTO ${prefix}contents (hash, size, created_at) VALUES ('" + HASH.toUpperCase()
                .substring(1) + "B', 1, 1)");
        assertRejected("INSERT INTO ${prefix}contents (hash, size, created_at) VALUES ('" + "b".repeat(64)
                + "', -1, 1)");
        String change = "INSERT INTO ${prefix}changes (seq, entry, change_type, kind, dir, name, previous_path, scan_id,"
                + " at)"
                + " VALUES ";
        assertRejected(change + "(999999, " + file + ", 'ADDED', 'BOGUS', NULL, 'a', NULL, 1, 1)");
        assertRejected(change + "(999999, " + file + ", 'RENAMED', 'FILE', NULL, 'a', NULL, 1, 1)");
        assertRejected(change + "(999999, " + file + ", 'MOVED', 'FILE', NULL, 'a', NULL, 1, 1)");
        assertRejected(change + "(999999, 0, 'ADDED', 'FILE', NULL, 'a', NULL, 1, 1)");
        assertRejected(change + "(999999, " + file + ", 'ADDED', 'FILE', NULL, '', NULL, 1, 1)");
        assertRejected("UPDATE ${prefix}feed SET pruned_through = last_seq + 1");
        assertRejected("INSERT INTO ${prefix}feed (id, last_seq, pruned_through) VALUES (2, 0, 0)");

        // The same columns take well-formed values: what was refused above was the shape, not the column.
        assertThat(raw().update("UPDATE ${prefix}files SET content_hash = '" + HASH + "', fingerprint = '" + HASH
                + "' WHERE id = " + file)).isEqualTo(1);
        assertThat(raw().update(change + "(999999, " + file + ", 'MOVED', 'FILE', NULL, 'b', '/a', 1, 1)"))
                .isEqualTo(1);
    }

    @Test
    void readerReadsButCannotWriteThroughItsApiOrItsConnections() throws Exception {
        FsIndex index = openIndex();
        Path root = tree("a.txt", "d/", "d/b.txt");
        index.scan(root);
        KeptConnections kept = new KeptConnections(raw());
        try (IndexReader reader = FsIndex.builder().dataSource(kept).tablePrefix(prefix()).buildReader()) {
            assertThat(reader).isNotInstanceOf(FsIndex.class);
            assertThat(reader.lookup(root.resolve("a.txt"))).isPresent();
            assertThat(reader.children(root.resolve("d"))).extracting(FileEntry::name).containsExactly("b.txt");
            assertThat(reader.info(5).schemaVersion()).isEqualTo(SchemaScripts.currentVersion());
            assertThat(kept.connections).isNotEmpty();
            for (Connection c : kept.connections) {
                try (Statement s = c.createStatement()) {
                    assertThatThrownBy(() -> s.executeUpdate("UPDATE " + prefix() + "files SET size = 1"))
                            .isInstanceOf(SQLException.class);
                    assertThatThrownBy(() -> s.executeUpdate("CREATE TABLE " + prefix() + "intruder (x INT)"))
                            .isInstanceOf(SQLException.class);
                }
            }
        } finally {
            kept.closeAll();
        }
        // The index itself is untouched and still writable through a writing handle.
        assertThat(raw().queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE size = 1 AND kind = 'DIRECTORY'"))
                .isZero();
        assertThat(index.scan(root).errors()).isEmpty();
    }

    /** The same for a reader that opened its database itself from the URL: its connections come read-only. */
    @Test
    void aReaderOpenedFromItsUrlCannotWriteThroughItsConnections() throws Exception {
        FsIndex index = openIndex();
        Path root = tree("a.txt");
        index.scan(root);
        try (IndexReader reader = database().builder(prefix()).buildReader()) {
            assertThat(reader.lookup(root.resolve("a.txt"))).isPresent();
            Database db = IndexInternals.ofReader(reader).db();
            for (int borrow = 0; borrow < 2; borrow++) {    // the second time from what the first gave back
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    assertThatThrownBy(() -> s.executeUpdate("UPDATE " + prefix() + "files SET size = 1"))
                            .isInstanceOf(SQLException.class);
                }
            }
        }
        assertThat(raw().queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE size = 1 AND kind = 'DIRECTORY'"))
                .isZero();
    }

    @Test
    void readerReadsCommittedRowsWhileAWriteTransactionIsOpen() throws Exception {
        FsIndex index = openIndex();
        Path root = tree("a.txt");
        index.scan(root);
        long mtime = index.lookup(root.resolve("a.txt")).orElseThrow().mtimeNanos();
        try (IndexReader reader = database().builder(prefix()).buildReader();
             Connection writer = raw().connect()) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                assertThat(s.executeUpdate("UPDATE " + prefix() + "files SET mtime = mtime + 1 WHERE kind = 'FILE'"))
                        .isEqualTo(1);
                // The writer holds its write lock (SQLite: the WAL write lock) and has not committed.
                assertThat(reader.lookup(root.resolve("a.txt")).orElseThrow().mtimeNanos()).isEqualTo(mtime);
                writer.commit();
            }
            assertThat(reader.lookup(root.resolve("a.txt")).orElseThrow().mtimeNanos()).isEqualTo(mtime + 1);
            // A scan through the writing handle runs while the reader is open, and the reader sees its result.
            Files.writeString(root.resolve("new.txt"), "x");
            index.scan(root);
            assertThat(reader.lookup(root.resolve("new.txt"))).isPresent();
        }
    }

    @Test
    void readerNeverCreatesAndRefusesMissingOrNewerSchema() throws Exception {
        String fresh = TestDatabase.freshPrefix();
        assertThatThrownBy(() -> database().builder(fresh).buildReader())
                .isInstanceOf(SchemaException.class).hasMessageContaining("no fsindex tables");
        assertThat(new RawIndex(database(), fresh).queryLongOr("SELECT COUNT(*) FROM ${prefix}schema", -1))
                .as("the reader created no tables").isEqualTo(-1);

        openIndex();
        raw().update("UPDATE ${prefix}schema SET version = 99");
        assertThatThrownBy(() -> database().builder(prefix()).buildReader())
                .isInstanceOf(SchemaException.class).hasMessageContaining("newer fsindex");
    }

    @Test
    void applicationRowsReferencingFilesOnDeleteCascadeGoWithTheEntry() throws Exception {
        // Without retention, rows of entries found gone are deleted by the same scan, not kept as orphans first.
        FsIndex index = openIndex(b -> b.orphanRetention(Duration.ZERO));
        Path root = tree("a.txt", "d/", "d/b.txt", "keep.txt");
        index.scan(root);
        String tags = appTable("CASCADE");
        long a = idOf(index, root.resolve("a.txt"));
        long b = idOf(index, root.resolve("d/b.txt"));
        long keep = idOf(index, root.resolve("keep.txt"));
        raw().update("INSERT INTO " + tags + " (file_id, tag) VALUES (" + a + ", 'x'), (" + b + ", 'y'), (" + keep
                + ", 'z')");

        Files.delete(root.resolve("a.txt"));
        Files.delete(root.resolve("d/b.txt"));
        Files.delete(root.resolve("d"));
        index.scan(root);

        assertThat(index.lookup(root.resolve("a.txt"))).isEmpty();
        assertThat(raw().queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE id IN (" + a + ", " + b + ")")).isZero();
        // b.txt went by the cascade of its directory's deletion, and took its tag along.
        assertThat(raw().queryLong("SELECT COUNT(*) FROM " + tags)).isEqualTo(1);
        assertThat(raw().queryLong("SELECT file_id FROM " + tags)).isEqualTo(keep);
    }

    @Test
    void applicationRowsReferencingFilesOnDeleteRestrictFailTheScanClearlyAndLoseNothing() throws Exception {
        // A short retry timeout: a refusal mistaken for a transient failure would otherwise be retried for minutes.
        FsIndex index = openIndex(b -> b.retryTimeout(Duration.ofSeconds(20)).orphanRetention(Duration.ZERO));
        Path root = tree("a.txt", "d/", "d/b.txt");
        index.scan(root);
        String tags = appTable("RESTRICT");
        long b = idOf(index, root.resolve("d/b.txt"));
        raw().update("INSERT INTO " + tags + " (file_id, tag) VALUES (" + b + ", 'y')");

        Files.delete(root.resolve("a.txt"));
        Files.delete(root.resolve("d/b.txt"));
        Files.delete(root.resolve("d"));
        long cursor = index.changeFeedEnd();
        assertThatThrownBy(() -> index.scan(root))
                .isInstanceOf(ScanFailedException.class)
                .hasMessageContaining("cannot delete")
                .hasMessageContaining("Nothing was deleted")
                .hasMessageContaining("ON DELETE CASCADE")
                .satisfies(e -> assertThat(e.getMessage().toLowerCase()).contains(tags.toLowerCase()));

        // Nothing was lost: the entries are still there (the referenced one below its directory too), unmarked.
        assertThat(index.lookup(root.resolve("a.txt"))).isPresent();
        assertThat(index.lookup(root.resolve("d/b.txt"))).isPresent();
        assertThat(raw().staleRows()).isZero();
        assertThat(raw().queryLong("SELECT COUNT(*) FROM " + tags)).isEqualTo(1);
        assertThat(index.info(1).recentScans().get(0).state()).isEqualTo("FAILED");
        // The deletions were reported in the transaction that failed, so the feed never shows them.
        assertThat(index.changesSince(cursor, 100).changes()).noneMatch(c -> c.type() == ChangeType.DELETED);

        // Once the application lets go, the next scan removes them.
        raw().update("DELETE FROM " + tags);
        index.scan(root);
        assertThat(index.lookup(root.resolve("a.txt"))).isEmpty();
        assertThat(index.lookup(root.resolve("d"))).isEmpty();
    }

    /** Creates an application's table referencing the files table with {@code onDelete}; returns its name. */
    private String appTable(String onDelete) throws SQLException {
        String name = prefix() + "app_tags";
        raw().update("CREATE TABLE " + name + " (file_id BIGINT NOT NULL, tag VARCHAR(100) NOT NULL, CONSTRAINT "
                + name + "_file FOREIGN KEY (file_id) REFERENCES ${prefix}files (id) ON DELETE " + onDelete + ")");
        return name;
    }

    /**
     * A data source that hands out each real connection once and keeps it when fsindex "closes" it, as a pool does,
     * so the test can try writing through the very connections a reader ran statements on (the one the builder
     * borrows only to read the URL's metadata, for finding the dialect, is not among them).
     */
    private static final class KeptConnections extends ConnectionSource {
        final List<Connection> connections = new CopyOnWriteArrayList<>();
        private final RawIndex raw;

        KeptConnections(RawIndex raw) {
            this.raw = raw;
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection real = raw.connect();
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("close")) {
                            return null; // back to the "pool": the session keeps its settings
                        }
                        if (method.getName().endsWith("Statement") && !connections.contains(real)) {
                            connections.add(real);
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        void closeAll() throws SQLException {
            for (Connection c : connections) {
                c.close();
            }
        }
    }
}
