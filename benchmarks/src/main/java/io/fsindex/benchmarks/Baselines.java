package io.fsindex.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * The floors each scan is compared with: the same tree's rows bulk-loaded into a plain table by the engine's own
 * loader, fed by {@code find -printf} (so the baseline walks the tree too, as the scan does). The plain table has the
 * columns {@code find} prints (relative path, type letter, size, modification time) and no index or constraint.
 */
final class Baselines {
    /** What {@code find} prints per entry: path relative to the tree, type letter, size, mtime in seconds. */
    static final String FIND_FORMAT = "%P\\t%y\\t%s\\t%T@\\n";

    private Baselines() {
    }

    /** How long a baseline took and how many rows it loaded (the tree's entries plus its root). */
    record Load(double seconds, long rows) {
    }

    static List<String> findCommand(Path tree) {
        return List.of("find", tree.toString(), "-printf", FIND_FORMAT);
    }

    /** True if {@code tool --version} runs. */
    static boolean available(String tool) {
        try {
            Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The first line {@code command} prints, or "?" . */
    static String firstLine(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return out.isEmpty() ? "?" : out.lines().findFirst().orElse("?");
        } catch (IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** {@code find TREE -printf … > /dev/null}: the walk alone, the floor under every scenario. */
    static double walkOnly(Path tree) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Process find = new ProcessBuilder(findCommand(tree)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        check(find, "find");
        return seconds(start);
    }

    /**
     * {@code find TREE -printf … | sqlite3 DB '.mode tabs' '.import /dev/stdin t'} into a fresh database file whose
     * table {@code t} is created beforehand (untimed).
     */
    static Load findIntoSqlite3(Path tree, Path db) throws IOException, InterruptedException {
        deleteSqlite(db);
        run("sqlite3", db.toString(), "CREATE TABLE t (path TEXT, kind TEXT, size INTEGER, mtime REAL)");
        long start = System.nanoTime();
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(
                new ProcessBuilder(findCommand(tree)).redirectError(ProcessBuilder.Redirect.INHERIT),
                new ProcessBuilder("sqlite3", db.toString(), ".mode tabs", ".import /dev/stdin t")
                        .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)));
        check(pipeline.get(0), "find");
        check(pipeline.get(1), "sqlite3 .import");
        double seconds = seconds(start);
        long rows = Long.parseLong(run("sqlite3", db.toString(), "SELECT count(*) FROM t").strip());
        deleteSqlite(db);
        return new Load(seconds, rows);
    }

    /**
     * The stand-in when the {@code sqlite3} or {@code find} command is missing (smoke runs only): an NIO walk inserting
     * the same rows through sqlite-jdbc, 10,000 per transaction. Not the baseline; the report says so.
     */
    static Load jdbcIntoSqlite(Path tree, Path db) throws IOException, SQLException {
        deleteSqlite(db);
        long start = System.nanoTime();
        long[] rows = {0};
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA synchronous = NORMAL");
                s.execute("CREATE TABLE t (path TEXT, kind TEXT, size INTEGER, mtime REAL)");
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
                Files.walkFileTree(tree, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                        return add(dir, attrs);
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        return add(file, attrs);
                    }

                    private FileVisitResult add(Path p, BasicFileAttributes a) throws IOException {
                        try {
                            insert.setString(1, tree.relativize(p).toString());
                            insert.setString(2, a.isDirectory() ? "d" : a.isSymbolicLink() ? "l" : "f");
                            insert.setLong(3, a.size());
                            insert.setDouble(4, a.lastModifiedTime().toMillis() / 1000.0);
                            insert.addBatch();
                            if (++rows[0] % 10_000 == 0) {
                                insert.executeBatch();
                                c.commit();
                            }
                        } catch (SQLException e) {
                            throw new IOException(e);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
                insert.executeBatch();
                c.commit();
            }
        }
        double seconds = seconds(start);
        deleteSqlite(db);
        return new Load(seconds, rows[0]);
    }

    /** {@code find TREE -printf …} streamed into {@code COPY t FROM STDIN} (PgJDBC's CopyManager), table fresh. */
    static Load findIntoPostgresCopy(Path tree, Connection c) throws IOException, InterruptedException, SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS t");
            s.execute("CREATE TABLE t (path text, kind text, size bigint, mtime double precision)");
        }
        long start = System.nanoTime();
        Process find = new ProcessBuilder(findCommand(tree)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long rows;
        try (InputStream in = find.getInputStream()) {
            rows = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY t FROM STDIN", in);
        }
        check(find, "find");
        double seconds = seconds(start);
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE t");
        }
        return new Load(seconds, rows);
    }

    /**
     * {@code find TREE -printf … > FILE} then {@code LOAD DATA LOCAL INFILE FILE INTO TABLE t} (the connection must
     * allow local infile), table fresh; both steps timed.
     */
    static Load findIntoLoadData(Path tree, Connection c, Path file) throws IOException, InterruptedException,
            SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS t");
            s.execute("CREATE TABLE t (path varchar(4000), kind char(1), size bigint, mtime double)"
                    + " ENGINE=InnoDB CHARACTER SET utf8mb4");
        }
        long start = System.nanoTime();
        Process find = new ProcessBuilder(findCommand(tree)).redirectOutput(file.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        check(find, "find");
        long rows;
        try (Statement s = c.createStatement()) {
            rows = s.executeLargeUpdate("LOAD DATA LOCAL INFILE '" + file.toString().replace("'", "''")
                    + "' INTO TABLE t FIELDS TERMINATED BY '\\t' ESCAPED BY '' LINES TERMINATED BY '\\n'");
        }
        double seconds = seconds(start);
        Files.deleteIfExists(file);
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE t");
        }
        return new Load(seconds, rows);
    }

    static void deleteSqlite(Path db) throws IOException {
        for (String suffix : new String[]{"", "-wal", "-shm", "-journal"}) {
            Files.deleteIfExists(db.resolveSibling(db.getFileName() + suffix));
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p, command[0]);
        return out;
    }

    private static void check(Process p, String what) throws InterruptedException, IOException {
        int code = p.waitFor();
        if (code != 0) {
            throw new IOException(what + " exited with code " + code);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
