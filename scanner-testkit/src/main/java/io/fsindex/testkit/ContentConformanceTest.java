package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ContentHashing;
import io.fsindex.api.FileStat;
import io.fsindex.api.GarbageCollection;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Content fingerprints and hashes ({@link ContentHashing}) and the content garbage collector
 * ({@link FsIndex#collectGarbage}), on a real database. Values are checked against SHA-256 computed here,
 * independently of fsindex.
 */
public abstract class ContentConformanceTest extends IndexTest {
    private static final Duration HOUR = Duration.ofHours(1);
    private static final ScanOptions FINGERPRINT = ScanOptions.defaults().withContentHashing(ContentHashing.FINGERPRINT);
    private static final ScanOptions FULL = ScanOptions.defaults().withContentHashing(ContentHashing.FULL);

    @Test
    void hashesAreOffByDefault() throws Exception {
        Path root = tree("a.txt", "d/", "d/b.txt");
        FsIndex index = openIndex();
        index.scan(root);
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE fingerprint IS NOT NULL"
                + " OR content_hash IS NOT NULL")).isZero();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents")).isZero();
    }

    @Test
    void fingerprintAndFullHashEqualIndependentlyComputedValues() throws Exception {
        Path root = tree("d/");
        byte[] big = randomBytes(200 * 1024 + 17, 1);     // longer than both ends together
        byte[] middle = randomBytes(100 * 1024, 2);       // the two ends overlap
        byte[] small = "hello".getBytes();
        Files.write(root.resolve("big.bin"), big);
        Files.write(root.resolve("d/middle.bin"), middle);
        Files.write(root.resolve("small.txt"), small);
        Files.write(root.resolve("empty"), new byte[0]);
        FsIndex index = openIndex();

        ScanResult r = index.scan(root, FINGERPRINT);
        assertThat(r.errors()).isEmpty();
        assertThat(fingerprintOf("big.bin")).isEqualTo(fingerprint(big));
        assertThat(fingerprintOf("middle.bin")).isEqualTo(fingerprint(middle));
        assertThat(fingerprintOf("small.txt")).isEqualTo(fingerprint(small));
        assertThat(fingerprintOf("empty")).isEqualTo(fingerprint(new byte[0]));
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE content_hash IS NOT NULL")).isZero();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE kind <> 'FILE' AND fingerprint IS NOT NULL"))
                .isZero();

        index.scan(root, FULL);
        for (var file : List.of(new Object[] {"big.bin", big}, new Object[] {"middle.bin", middle},
                new Object[] {"small.txt", small}, new Object[] {"empty", new byte[0]})) {
            byte[] content = (byte[]) file[1];
            assertThat(hashOf((String) file[0])).isEqualTo(sha256(content));
            assertThat(fingerprintOf((String) file[0])).isEqualTo(fingerprint(content));
            assertThat(queryLong("SELECT size FROM ${prefix}contents WHERE hash = '" + sha256(content) + "'"))
                    .isEqualTo(content.length);
        }
    }

    /**
     * A directory's files are read page by page (256 rows, by name): every file of a directory several pages long
     * gets its value, whatever its name sorts like.
     */
    @Test
    void everyFileOfADirectoryOfSeveralPagesIsHashed() throws Exception {
        Path root = tree("d/");
        int files = 700;
        for (int i = 0; i < files; i++) {
            // Names in an order unlike the rows' ids: descending numbers, some with spaces, case and non-ASCII.
            String name = (files - i) + (i % 3 == 0 ? " Z" : i % 3 == 1 ? "a\u00e9" : "") + ".txt";
            Files.writeString(root.resolve("d").resolve(name), "file " + i);
        }
        FsIndex index = openIndex();
        ScanResult r = index.scan(root, FINGERPRINT);
        assertThat(r.errors()).isEmpty();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE kind = 'FILE' AND fingerprint IS NULL"))
                .isZero();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE fingerprint IS NOT NULL")).isEqualTo(files);
        assertThat(fingerprintOf("700 Z.txt")).isEqualTo(fingerprint("file 0".getBytes()));
    }

    @Test
    void identicalFilesShareOneContentRow() throws Exception {
        Path root = tree("a/", "b/");
        Files.writeString(root.resolve("a/x.txt"), "same content");
        Files.writeString(root.resolve("b/y.txt"), "same content");
        Files.writeString(root.resolve("z.txt"), "other content");
        FsIndex index = openIndex();
        index.scan(root, FULL);
        assertThat(hashOf("x.txt")).isEqualTo(hashOf("y.txt")).isEqualTo(sha256("same content".getBytes()));
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents")).isEqualTo(2);
    }

    @Test
    void valuesAreRecomputedOnlyWhenSizeOrMtimeChanged() throws Exception {
        Path root = tree();
        Path file = root.resolve("a.txt");
        Files.writeString(file, "hello");
        FsIndex index = openIndex();
        index.scan(root, FULL);
        String hello = sha256("hello".getBytes());
        assertThat(hashOf("a.txt")).isEqualTo(hello);

        // Same size, mtime restored: a scan cannot tell, so it must not read the file again.
        FileTime mtime = Files.getLastModifiedTime(file);
        Files.writeString(file, "jello");
        Files.setLastModifiedTime(file, mtime);
        index.scan(root, FULL);
        assertThat(hashOf("a.txt")).isEqualTo(hello);
        assertThat(fingerprintOf("a.txt")).isEqualTo(fingerprint("hello".getBytes()));

        // A scan without hashing that finds it changed clears the stale values rather than keeping them.
        Files.setLastModifiedTime(file, FileTime.fromMillis(mtime.toMillis() + 5_000));
        index.scan(root);
        assertThat(hashOf("a.txt")).isNull();
        assertThat(fingerprintOf("a.txt")).isNull();

        index.scan(root, FULL);
        assertThat(hashOf("a.txt")).isEqualTo(sha256("jello".getBytes()));
        assertThat(fingerprintOf("a.txt")).isEqualTo(fingerprint("jello".getBytes()));

        // A changed size is seen by a hashing scan too, which hashes the new content at once.
        Files.writeString(file, "hello, world");
        index.scan(root, FULL);
        assertThat(hashOf("a.txt")).isEqualTo(sha256("hello, world".getBytes()));
    }

    @Test
    void aFileChangedWhileBeingHashedIsNotStoredWithAWrongHash() throws Exception {
        Path root = tree();
        Path file = root.resolve("a.txt");
        Files.writeString(file, "before");
        FileTime listed = Files.getLastModifiedTime(file);
        AtomicInteger stats = new AtomicInteger();
        // Content hashing stats the file before reading it and again after; the test's walker rewrites the file
        // (same size, new mtime) just before that second stat, i.e. after its old content was read.
        ForwardingWalker rewriting = new ForwardingWalker() {
            @Override
            public FileStat stat(Path path) throws IOException {
                if (path.equals(file) && stats.incrementAndGet() == 2) {
                    Files.writeString(file, "after!");
                    Files.setLastModifiedTime(file, FileTime.fromMillis(listed.toMillis() + 5_000));
                }
                return super.stat(path);
            }
        };
        FsIndex index = openIndex();
        ScanResult r = index.scan(root, FULL.withWalker(rewriting));
        assertThat(stats.get()).isEqualTo(2);
        assertThat(r.errors()).isEmpty();
        assertThat(hashOf("a.txt")).isNull();
        assertThat(fingerprintOf("a.txt")).isNull();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents")).isZero();

        index.scan(root, FULL);
        assertThat(hashOf("a.txt")).isEqualTo(sha256("after!".getBytes()));
    }

    @Test
    void aFileChangedSinceItsListingIsNotHashed() throws Exception {
        Path root = tree();
        Path file = root.resolve("a.txt");
        Files.writeString(file, "listed");
        // The file changes after the walker listed it and before content hashing's first stat.
        ForwardingWalker changing = new ForwardingWalker() {
            @Override
            public FileStat stat(Path path) throws IOException {
                if (path.equals(file)) {
                    Files.writeString(file, "changed since");
                }
                return super.stat(path);
            }
        };
        FsIndex index = openIndex();
        index.scan(root, FINGERPRINT.withWalker(changing));
        assertThat(fingerprintOf("a.txt")).isNull();
        index.scan(root, FINGERPRINT);
        assertThat(fingerprintOf("a.txt")).isEqualTo(fingerprint("changed since".getBytes()));
    }

    @Test
    void aFileThatFailsToReadIsReportedAndTheScanCompletes() throws Exception {
        Path root = tree("looks-like-a-file/");
        Files.writeString(root.resolve("ok.txt"), "ok");
        Path fake = root.resolve("looks-like-a-file");
        // The walker reports a directory as a file, consistently; reading it then fails ("Is a directory") as an
        // unreadable file would, whoever runs the test (root ignores permission bits, so those cannot stage it).
        FileStat asFile = new FileStat(io.fsindex.api.FileKind.FILE, 10, 1_000_000_000L, null, null);
        ForwardingWalker lying = new ForwardingWalker() {
            @Override
            public io.fsindex.api.DirectoryListing list(Path directory) throws IOException {
                io.fsindex.api.DirectoryListing real = super.list(directory);
                return new io.fsindex.api.DirectoryListing(real.entries().stream()
                        .map(e -> directory.resolve(e.name()).equals(fake)
                                ? new io.fsindex.api.WalkedEntry(e.name(), asFile) : e)
                        .toList(), real.problems());
            }

            @Override
            public FileStat stat(Path path) throws IOException {
                return path.equals(fake) ? asFile : super.stat(path);
            }
        };
        FsIndex index = openIndex();
        ScanResult r = index.scan(root, FULL.withWalker(lying));
        assertThat(r.errors()).extracting(ScanError::path).containsExactly(fake);
        assertThat(r.errors()).extracting(ScanError::reason).containsExactly(ScanError.Reason.IO_ERROR);
        assertThat(hashOf("looks-like-a-file")).isNull();
        assertThat(hashOf("ok.txt")).isEqualTo(sha256("ok".getBytes()));
    }

    @Test
    void theCollectorMarksHonoursTheGracePeriodAndDeletesOnlyUnreferencedContent() throws Exception {
        Path root = tree();
        Files.writeString(root.resolve("a.txt"), "first");
        Files.writeString(root.resolve("b.txt"), "kept");
        FsIndex index = openIndex();
        index.scan(root, FULL);
        String first = sha256("first".getBytes());
        String kept = sha256("kept".getBytes());
        // A change of the file (not a deletion, whose row may be kept a while for move detection) drops the last
        // reference to the first content.
        Files.writeString(root.resolve("a.txt"), "second, longer");
        index.scan(root, FULL);
        String second = sha256("second, longer".getBytes());
        List<String> deleted = new ArrayList<>();

        GarbageCollection run1 = index.collectGarbage(HOUR, deleted::add);
        assertThat(run1).isEqualTo(new GarbageCollection(3, 2, 1, 0));
        long mark = queryLong("SELECT unused_since FROM ${prefix}contents WHERE hash = '" + first + "'");
        assertThat(mark).isPositive();
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents WHERE unused_since IS NOT NULL")).isEqualTo(1);

        GarbageCollection run2 = index.collectGarbage(HOUR, deleted::add);
        assertThat(run2).isEqualTo(new GarbageCollection(3, 2, 1, 0));
        assertThat(queryLong("SELECT unused_since FROM ${prefix}contents WHERE hash = '" + first + "'"))
                .as("an existing mark is kept, so the grace period runs from the first time").isEqualTo(mark);
        assertThat(deleted).isEmpty();

        // Marked long enough ago: the next run deletes it, and calls back for it alone.
        execute("UPDATE ${prefix}contents SET unused_since = unused_since - " + 2 * HOUR.toMillis()
                + " WHERE hash = '" + first + "'");
        // A referenced row carrying a stale mark keeps its row and loses the mark.
        execute("UPDATE ${prefix}contents SET unused_since = 1 WHERE hash = '" + kept + "'");
        GarbageCollection run3 = index.collectGarbage(HOUR, deleted::add);
        assertThat(run3).isEqualTo(new GarbageCollection(3, 2, 0, 1));
        assertThat(deleted).containsExactly(first);
        assertThat(contents()).containsExactlyInAnyOrder(kept, second);
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents WHERE unused_since IS NOT NULL")).isZero();

        // Nothing left to collect: no callback.
        index.collectGarbage(Duration.ZERO, deleted::add);
        assertThat(deleted).containsExactly(first);
    }

    @Test
    void contentReferencedFromAnApplicationsOwnTableIsNeverDeleted() throws Exception {
        Path root = tree();
        Files.writeString(root.resolve("photo.jpg"), "pixels");
        FsIndex index = openIndex();
        index.scan(root, FULL);
        String pixels = sha256("pixels".getBytes());
        createApplicationTable();
        execute("INSERT INTO ${prefix}app_thumbs (id, content) VALUES (1, '" + pixels + "')");
        // The file no longer has that content; only the application's row references it now.
        Files.writeString(root.resolve("photo.jpg"), "new pixels");
        index.scan(root, FULL);
        execute("UPDATE ${prefix}contents SET unused_since = 1 WHERE hash = '" + pixels + "'");
        List<String> deleted = new ArrayList<>();

        GarbageCollection run = index.collectGarbage(Duration.ZERO, deleted::add);
        assertThat(run.deleted()).isZero();
        assertThat(run.referenced()).isEqualTo(2);
        assertThat(deleted).isEmpty();
        assertThat(contents()).contains(pixels);
        assertThat(queryLong("SELECT COUNT(*) FROM ${prefix}contents WHERE unused_since IS NOT NULL")).isZero();

        execute("DELETE FROM ${prefix}app_thumbs WHERE id = 1");
        index.collectGarbage(Duration.ZERO, deleted::add);           // marks
        assertThat(deleted).isEmpty();
        index.collectGarbage(Duration.ZERO, deleted::add);           // the mark is old enough
        assertThat(deleted).containsExactly(pixels);
        assertThat(contents()).containsExactly(sha256("new pixels".getBytes()));
    }

    @Test
    void aReferenceAddedWhileTheCollectorRunsIsNeverDeleted() throws Exception {
        Path root = tree();
        Files.writeString(root.resolve("a.txt"), "orphaned soon");
        FsIndex index = openIndex();
        index.scan(root, FULL);
        String hash = sha256("orphaned soon".getBytes());
        Files.writeString(root.resolve("a.txt"), "something else");
        index.scan(root, FULL);
        createApplicationTable();
        // Unreferenced and marked long ago: the collector deletes it unless a reference stops it.
        execute("UPDATE ${prefix}contents SET unused_since = 1 WHERE hash = '" + hash + "'");
        List<String> deleted = new ArrayList<>();
        try (Connection app = raw()) {
            app.setAutoCommit(false);
            try (Statement s = app.createStatement()) {
                s.executeUpdate(sql("INSERT INTO ${prefix}app_thumbs (id, content) VALUES (7, '" + hash + "')"));
            }
            // The reference is uncommitted: the collector's delete of that row waits for it (a row lock on
            // PostgreSQL, MySQL and MariaDB; the write lock on SQLite, whose collector cannot begin until then).
            // A thread of its own: the common pool has one worker on a 2-core machine, and a task another test left
            // there would keep the collector from starting at all.
            java.util.concurrent.ExecutorService collector = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                CompletableFuture<GarbageCollection> gc = CompletableFuture.supplyAsync(
                        () -> index.collectGarbage(Duration.ZERO, deleted::add), collector);
                awaitLockWait(gc);
                app.commit();
                GarbageCollection run = gc.get(2, TimeUnit.MINUTES);
                assertThat(run.deleted()).isZero();
            } finally {
                collector.shutdownNow();
            }
        }
        assertThat(deleted).isEmpty();
        assertThat(contents()).contains(hash);
    }

    // ---- helpers

    private void createApplicationTable() throws SQLException {
        String product = product();
        String type = product.contains("PostgreSQL") ? "TEXT COLLATE \"C\""
                : product.contains("SQLite") ? "TEXT" : "CHAR(64) CHARACTER SET ascii COLLATE ascii_bin";
        String engine = product.contains("PostgreSQL") || product.contains("SQLite") ? "" : " ENGINE = InnoDB";
        execute("CREATE TABLE ${prefix}app_thumbs (id INTEGER NOT NULL PRIMARY KEY, content " + type + " NOT NULL,"
                + " FOREIGN KEY (content) REFERENCES ${prefix}contents (hash) ON DELETE RESTRICT)" + engine);
    }

    /**
     * Waits until another session waits for a lock (the collector, on the application's uncommitted reference), or
     * the collector has ended; where the engine cannot tell (SQLite, whose collector cannot begin its write
     * transaction before the reference commits anyway) returns at once.
     */
    private void awaitLockWait(CompletableFuture<?> gc) throws SQLException, InterruptedException {
        String product = product();
        // A row lock wait, or on MySQL/MariaDB any session waiting on a lock of another sort (a metadata lock),
        // or the collector's delete still running.
        String waiting = product.contains("PostgreSQL")
                ? "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                : product.contains("SQLite") ? null
                : "SELECT (SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT')"
                + " + (SELECT COUNT(*) FROM information_schema.processlist WHERE id <> CONNECTION_ID()"
                // innodb_trx has been seen to miss the wait (MariaDB) while the collector's DELETE sat in "Updating"
                // for seconds: a one-row delete by key still running can only be waiting for the reference.
                + " AND (state LIKE '%lock%' OR LOWER(info) LIKE 'delete from %contents%'))";
        if (waiting == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!gc.isDone() && queryLong(waiting) == 0) {
            if (System.nanoTime() > deadline) {
                // Say what every session was doing, so a failure here can be understood from the log alone.
                throw new AssertionError("the collector never waited for the uncommitted reference; sessions: "
                        + sessions(product.contains("PostgreSQL")
                        ? "SELECT pid, state, wait_event_type, wait_event, query FROM pg_stat_activity"
                        : "SELECT id, command, time, state, info FROM information_schema.processlist"));
            }
            Thread.sleep(10);                   // polling a condition, not a guess at how long something takes
        }
    }

    private List<String> sessions(String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = raw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i == 1 ? "" : " | ").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    private List<String> contents() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = raw(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql("SELECT hash FROM ${prefix}contents"))) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private String fingerprintOf(String name) throws SQLException {
        return queryString("SELECT fingerprint FROM ${prefix}files WHERE name = '" + name + "'");
    }

    private String hashOf(String name) throws SQLException {
        return queryString("SELECT content_hash FROM ${prefix}files WHERE name = '" + name + "'");
    }

    private String product() throws SQLException {
        try (Connection c = raw()) {
            return c.getMetaData().getDatabaseProductName() + " " + c.getMetaData().getURL();
        }
    }

    private Connection raw() throws SQLException {
        TestDatabase db = database();
        Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        if (db.jdbcUrl().contains(":sqlite:")) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA foreign_keys = ON");
                s.execute("PRAGMA busy_timeout = 60000");
            }
        }
        return c;
    }

    private String sql(String sql) {
        return sql.replace("${prefix}", prefix());
    }

    private long queryLong(String sql) throws SQLException {
        try (Connection c = raw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql(sql))) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private String queryString(String sql) throws SQLException {
        try (Connection c = raw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql(sql))) {
            assertThat(rs.next()).as("a row for " + sql).isTrue();
            return rs.getString(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = raw(); Statement s = c.createStatement()) {
            s.execute(sql(sql));
        }
    }

    private static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** SHA-256 of the size (8 bytes, big-endian), the first 64 KiB and the last 64 KiB. */
    static String fingerprint(byte[] content) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(ByteBuffer.allocate(8).putLong(content.length).array());
        int block = Math.min(content.length, 64 * 1024);
        md.update(content, 0, block);
        md.update(content, content.length - block, block);
        return HexFormat.of().formatHex(md.digest());
    }

    static String sha256(byte[] content) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    }
}
