package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.postgresql.PGConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What each part of fsindex's PostgreSQL schema costs the server per new row: the rows of a cold scan (new files of
 * one huge directory, or of a tree's new directories) go into fsindex's own tables the way its bulk loader sends
 * them (ids from the identity's sequence, the files' {@code COPY}, the feed's {@code COPY}, one transaction a part,
 * then the end of scan's {@code VACUUM (ANALYZE)}), once with the schema as created and once without each part of
 * it in turn (an index, the insert trigger, the content key, the checks, the feed). The backend's CPU time of each
 * step is read from {@code /proc}, so the load of a shared machine hardly moves it; the walk and the JVM are left out.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.PostgresRowCost --entries 200000 --runs 2
 * </pre>
 */
@Command(name = "postgres-row-cost", mixinStandardHelpOptions = true,
        description = "Server CPU of fsindex's PostgreSQL tables per new row, without each part of the schema in turn.")
public final class PostgresRowCost extends BenchCommand {
    private static final String PREFIX = ServerScans.PREFIX;
    private static final String FILES = PREFIX + "files";
    /** As many rows as the scan loads at once for a part of a huge directory. */
    private static final int PART = 32_768;
    /** Files below each new directory of the tree shape. */
    private static final int FILES_PER_DIRECTORY = 7;

    @Option(names = "--entries", defaultValue = "200000", paramLabel = "N",
            description = "rows (default ${DEFAULT-VALUE})")
    int entries;
    @Option(names = "--runs", defaultValue = "1", paramLabel = "N", description = "runs of each variant")
    int runs;
    @Option(names = "--shapes", split = ",", defaultValue = "huge,tree", paramLabel = "SHAPE",
            description = "huge (one parent, names in hash order) and/or tree (new directories of "
                    + FILES_PER_DIRECTORY + " files)")
    List<String> shapes;
    @Option(names = "--variants", split = ",", paramLabel = "NAME",
            description = "variants to run (default all): full, no-tree-index, no-file-key-index, no-parent-name-key,"
                    + " no-insert-trigger, no-content-key, no-checks, no-feed, bare")
    List<String> only;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where the server's data goes")
    Path workDir;

    public static void main(String[] args) {
        BenchCommand.main(new PostgresRowCost(), args);
    }

    /** What a variant takes away from the schema before the rows go in. */
    private record Variant(String name, List<String> drop, boolean feed) {
    }

    private static List<Variant> variants() {
        String checks = "DO $$ DECLARE c TEXT; BEGIN FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = '"
                + FILES + "'::regclass AND contype = 'c' LOOP EXECUTE format('ALTER TABLE " + FILES
                + " DROP CONSTRAINT %I', c); END LOOP; END $$";
        String parentName = "DO $$ DECLARE c TEXT; BEGIN SELECT conname INTO c FROM pg_constraint WHERE conrelid = '"
                + FILES + "'::regclass AND contype = 'u'; EXECUTE format('ALTER TABLE " + FILES
                + " DROP CONSTRAINT %I', c); END $$";
        String contentKey = "DO $$ DECLARE c TEXT; BEGIN SELECT conname INTO c FROM pg_constraint WHERE conrelid = '"
                + FILES + "'::regclass AND contype = 'f'; EXECUTE format('ALTER TABLE " + FILES
                + " DROP CONSTRAINT %I', c); END $$";
        String tree = "DROP INDEX " + PREFIX + "files_tree";
        String fileKey = "DROP INDEX " + PREFIX + "files_file_key";
        String trigger = "ALTER TABLE " + FILES + " DISABLE TRIGGER " + PREFIX + "files_inserted";
        return List.of(new Variant("full", List.of(), true),
                new Variant("no-tree-index", List.of(tree), true),
                new Variant("no-file-key-index", List.of(fileKey), true),
                new Variant("no-parent-name-key", List.of(parentName), true),
                new Variant("no-insert-trigger", List.of(trigger), true),
                new Variant("no-content-key", List.of(contentKey), true),
                new Variant("no-checks", List.of(checks), true),
                new Variant("no-feed", List.of(), false),
                new Variant("bare", List.of(tree, fileKey, parentName, trigger, contentKey, checks), false));
    }

    /** One row to load: its parent (an index into the rows, or -1 for the directory below the root) and itself. */
    private record NewRow(int parent, String name, boolean directory, long mtime, long fileKey) {
    }

    /** Seconds of the backend's CPU per step. */
    private record Cost(double ids, double files, double feed, double commit, double vacuum, String load) {
        double total() {
            return ids + files + feed + commit + vacuum;
        }
    }

    @Override
    public Integer call() throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        List<Variant> chosen = variants().stream().filter(v -> only == null || only.contains(v.name())).toList();
        Map<String, List<NewRow>> rows = new LinkedHashMap<>();
        for (String shape : shapes) {
            rows.put(shape, rows(shape));
        }
        try (Scratch scratch = Scratch.create(workDir, "fsindex-postgres-row-cost-", false);
             PostgresServer server = PostgresServer.startEmbedded(scratch.resolve("pg-data"))) {
            Path root = scratch.resolve("root");
            Files.createDirectories(root.resolve("dir"));
            out.println(server.version() + ", " + entries + " rows, parts of " + PART
                    + "; server CPU seconds of the backend, per step");
            out.println("| shape | variant | run | load | ids | files' COPY | feed's COPY | commits | VACUUM (ANALYZE)"
                    + " | total |");
            out.println("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|");
            Map<String, List<Double>> totals = new LinkedHashMap<>();
            for (int r = 1; r <= runs; r++) {
                for (String shape : shapes) {
                    for (int k = 0; k < chosen.size(); k++) {
                        Variant v = chosen.get((k + r - 1) % chosen.size());     // the order rotates each run
                        Cost c = load(server, root, v, rows.get(shape));
                        totals.computeIfAbsent(shape + " | " + v.name(), x -> new ArrayList<>()).add(c.total());
                        String line = String.format(Locale.ROOT, "| %s | %s | %d | %s | %.2f | %.2f | %.2f | %.2f"
                                + " | %.2f | %.2f |", shape, v.name(), r, c.load(), c.ids(), c.files(), c.feed(),
                                c.commit(), c.vacuum(), c.total());
                        out.println(line);
                        progress.println(line);
                        progress.flush();
                    }
                }
            }
            out.println();
            out.println("| shape | variant | total, mean of runs |");
            out.println("|---|---|--:|");
            totals.forEach((k, t) -> out.printf(Locale.ROOT, "| %s | %.2f |%n", k,
                    t.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
        }
        out.flush();
        return 0;
    }

    /**
     * The rows of a shape: {@code huge}, files of one directory with names in no order and modification times in
     * the order they were created, as a huge directory lists them; {@code tree}, new directories each followed by its
     * files, as a cold scan inserts a tree's (a directory's id lower than its files').
     */
    private List<NewRow> rows(String shape) {
        SplittableRandom rng = new SplittableRandom(42);
        long base = 1_764_270_000_000_000_000L;
        List<NewRow> list = new ArrayList<>(entries);
        Set<String> names = new HashSet<>();
        switch (shape) {
            case "huge" -> {
                while (list.size() < entries) {
                    String name = name(rng);
                    if (names.add(name)) {
                        list.add(new NewRow(-1, name, false, base + list.size() * 5_000L, rng.nextLong()));
                    }
                }
                for (int i = list.size() - 1; i > 0; i--) {            // hash order, not creation order
                    int j = rng.nextInt(i + 1);
                    NewRow t = list.get(i);
                    list.set(i, list.get(j));
                    list.set(j, t);
                }
            }
            case "tree" -> {
                int dir = -1;
                while (list.size() < entries) {
                    if (list.size() % (FILES_PER_DIRECTORY + 1) == 0) {
                        list.add(new NewRow(-1, "d" + list.size(), true, base + list.size() * 5_000L, rng.nextLong()));
                        dir = list.size() - 1;
                    } else {
                        list.add(new NewRow(dir, name(rng), false, base + list.size() * 5_000L, rng.nextLong()));
                    }
                }
            }
            default -> throw new IllegalArgumentException("no shape " + shape + ": huge or tree");
        }
        return list;
    }

    private static String name(SplittableRandom rng) {
        char[] c = new char[8 + rng.nextInt(17)];
        for (int i = 0; i < c.length; i++) {
            c[i] = "abcdefghijklmnopqrstuvwxyz0123456789".charAt(rng.nextInt(36));
        }
        return new String(c);
    }

    /** Fresh tables without what {@code v} drops, the rows loaded part by part, then the end of scan's VACUUM. */
    private Cost load(PostgresServer server, Path root, Variant v, List<NewRow> rows) throws Exception {
        ServerScans.drop(server.connect(), " CASCADE");
        try (FsIndex index = FsIndex.builder().jdbcUrl(server.url()).user(server.user())
                .password(server.password()).tablePrefix(PREFIX).build()) {
            index.scan(root);                       // the schema, a scan and the directory the rows go below
        }
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            for (String ddl : v.drop()) {
                s.execute(ddl);
            }
            long dir;
            long scan;
            long backend;
            try (ResultSet rs = s.executeQuery("SELECT f.id, f.scan_id, pg_backend_pid() FROM " + FILES
                    + " f WHERE f.name = 'dir'")) {
                rs.next();
                dir = rs.getLong(1);
                scan = rs.getLong(2);
                backend = rs.getLong(3);
            }
            long seq;
            try (ResultSet rs = s.executeQuery("SELECT last_seq FROM " + PREFIX + "feed")) {
                rs.next();
                seq = rs.getLong(1);
            }
            String sequence;                        // named once, as the bulk loader does
            try (ResultSet rs = s.executeQuery("SELECT pg_get_serial_sequence('" + FILES + "', 'id')")) {
                rs.next();
                sequence = rs.getString(1);
            }
            c.setAutoCommit(false);
            var copy = c.unwrap(PGConnection.class).getCopyAPI();
            long[] ticks = new long[5];
            long[] ids = new long[rows.size()];
            for (int from = 0; from < rows.size(); from += PART) {
                int to = Math.min(rows.size(), from + PART);
                long t0 = ticks(backend);
                try (PreparedStatement p = c.prepareStatement("SELECT nextval('" + sequence + "')"
                        + " FROM generate_series(1, ?)")) {
                    p.setInt(1, to - from);
                    try (ResultSet rs = p.executeQuery()) {
                        for (int i = from; rs.next(); i++) {
                            ids[i] = rs.getLong(1);
                        }
                    }
                }
                long t1 = ticks(backend);
                copy.copyIn("COPY " + FILES + " (id, parent, name, kind, size, mtime, link_target, file_key, scan_id,"
                        + " listed_by) FROM STDIN", filesText(rows, ids, from, to, dir, scan));
                long t2 = ticks(backend);
                if (v.feed()) {
                    copy.copyIn("COPY " + PREFIX + "changes (seq, entry, change_type, kind, dir, name, previous_path,"
                            + " scan_id, at) FROM STDIN", feedText(rows, ids, from, to, dir, scan, seq));
                    seq += to - from;
                }
                long t3 = ticks(backend);
                c.commit();
                long t4 = ticks(backend);
                ticks[0] += t1 - t0;
                ticks[1] += t2 - t1;
                ticks[2] += t3 - t2;
                ticks[3] += t4 - t3;
            }
            c.setAutoCommit(true);
            long t0 = ticks(backend);
            s.execute("VACUUM (ANALYZE, SKIP_LOCKED) " + FILES + ", " + PREFIX + "changes, " + PREFIX + "change_dirs");
            ticks[4] = ticks(backend) - t0;
            return new Cost(ticks[0] / 100.0, ticks[1] / 100.0, ticks[2] / 100.0, ticks[3] / 100.0, ticks[4] / 100.0,
                    load);
        } catch (SQLException e) {
            throw new IllegalStateException(v.name() + ": " + e.getMessage(), e);
        }
    }

    /** The files' rows {@code from} to {@code to} as the bulk loader's text, below {@code dir} or a new directory. */
    private static ByteArrayInputStream filesText(List<NewRow> rows, long[] ids, int from, int to, long dir,
                                                  long scan) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            NewRow n = rows.get(i);
            text.append(ids[i]).append('\t').append(n.parent() < 0 ? dir : ids[n.parent()]).append('\t')
                    .append(n.name()).append('\t').append(n.directory() ? "DIRECTORY" : "FILE")
                    .append("\t0\t").append(n.mtime()).append("\t\\N\t").append(n.fileKey()).append('\t')
                    .append(scan).append('\t').append(n.directory() ? scan : 0).append('\n');
        }
        return new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The feed's ADDED rows for the same rows, numbered on from {@code seq}. */
    private static ByteArrayInputStream feedText(List<NewRow> rows, long[] ids, int from, int to, long dir,
                                                 long scan, long seq) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            NewRow n = rows.get(i);
            text.append(++seq).append('\t').append(ids[i]).append("\tADDED\t")
                    .append(n.directory() ? "DIRECTORY" : "FILE").append('\t').append(dir).append('\t')
                    .append(n.name()).append("\t\\N\t").append(scan).append("\t1\n");
        }
        return new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The backend's CPU ticks (user and system, in hundredths of a second). */
    private static long ticks(long backend) {
        long[] s = CpuClock.stat(Path.of("/proc/" + backend + "/stat"));
        return s[0] + s[1];
    }
}
