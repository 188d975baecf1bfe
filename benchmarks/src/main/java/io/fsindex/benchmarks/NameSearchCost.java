package io.fsindex.benchmarks;

import io.fsindex.api.FileQuery;
import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What PostgreSQL's name search index costs a cold scan: cold scans of one tree into empty tables without the index
 * and with it in the ways given, in turns (the order rotates each run), each with its wall time, this JVM's CPU, the
 * server's CPU (postmaster and backends, from {@code /proc}), the WAL it wrote and the load average beside it. On a
 * shared machine the wall time is mostly the wait for a CPU; CPU time is what the scan costs.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.NameSearchCost --entries 200000 --runs 3
 * </pre>
 * A way is {@code off} (no index), {@code on} (fsindex's index as created), {@code after} (a scan without it, then
 * creating it, timed together), or {@code on:SETTINGS}, parts separated by {@code ;}: {@code index:P=V/P=V} the storage
 * parameters the index is created again with on the empty table, {@code using:…} another definition than
 * {@code gin (lower(name) gin_trgm_ops)} (e.g. {@code using:gist (lower(name) gist_trgm_ops)}), {@code session:S=V}
 * a setting of the scan's sessions (e.g. {@code session:work_mem=4MB}); {@code after:session:S=V} sets it for the
 * scan and the index's creation after it. PostgreSQL's own defaults before fsindex set
 * its own: {@code on:index:gin_pending_list_limit=4096;session:work_mem=4MB}.
 */
@Command(name = "name-search-cost", mixinStandardHelpOptions = true,
        description = "Cold scans into PostgreSQL without and with the name search index, in turns; wall and CPU.")
public final class NameSearchCost extends BenchCommand {
    private static final String PREFIX = ServerScans.PREFIX;

    @Option(names = "--entries", defaultValue = "200000", paramLabel = "N", description = "entries in the tree")
    long entries;
    @Option(names = "--runs", defaultValue = "3", paramLabel = "N", description = "runs of each way")
    int runs;
    @Option(names = "--seed", defaultValue = "42", paramLabel = "SEED", description = "seed of the generated tree")
    long seed;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where the tree and the server's data go")
    Path workDir;
    @Option(names = "--ways", split = ",", defaultValue = "off,on", paramLabel = "WAY",
            description = "ways to scan: off, on, on:index:P=V;session:S=V (default ${DEFAULT-VALUE})")
    List<String> ways;

    public static void main(String[] args) {
        BenchCommand.main(new NameSearchCost(), args);
    }

    /** One cold scan's costs. */
    private record Cost(double wall, double jvm, double server, double walMb, double indexMb, double search,
                        String load) {
    }

    @Override
    public Integer call() throws Exception {
        try (Scratch scratch = Scratch.create(workDir, "fsindex-name-search-cost-", false);
             CpuClock clock = new CpuClock()) {
            Scratch.GeneratedTree tree = scratch.generateTree("tree", entries, seed);
            progress.printf("generated %d entries%n", tree.stats().entries());
            try (PostgresServer server = PostgresServer.startEmbedded(scratch.resolve("pg-data"))) {
                long postmaster;
                try (Connection c = server.connect(); Statement s = c.createStatement()) {
                    try (ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                        rs.next();
                        postmaster = CpuClock.parentOf(rs.getLong(1));
                    }
                    out.println(server.version() + "; " + settings(s));
                }
                clock.server(() -> CpuClock.postgresTicks(postmaster));
                progress.println("warm-up scan (not counted)");
                scan(server, clock, "off", tree.root());
                Map<String, List<Cost>> costs = new LinkedHashMap<>();
                ways.forEach(w -> costs.put(w, new ArrayList<>()));
                for (int run = 0; run < runs; run++) {
                    for (int i = 0; i < ways.size(); i++) {
                        String way = ways.get((i + run) % ways.size());
                        Cost cost = scan(server, clock, way, tree.root());
                        costs.get(way).add(cost);
                        progress.printf(Locale.ROOT, "run %d %-50s wall %7.2f jvm %6.2f server %6.2f wal %7.1f MB"
                                        + " index %6.1f MB search %.3f s load %s%n", run + 1, way, cost.wall,
                                cost.jvm, cost.server, cost.walMb, cost.indexMb, cost.search, cost.load);
                    }
                }
                table(costs);
            }
        }
        return 0;
    }

    private String settings(Statement s) throws SQLException {
        List<String> shown = new ArrayList<>();
        for (String name : List.of("shared_buffers", "work_mem", "maintenance_work_mem", "gin_pending_list_limit",
                "max_wal_size", "checkpoint_timeout")) {
            try (ResultSet rs = s.executeQuery("SHOW " + name)) {
                rs.next();
                shown.add(name + "=" + rs.getString(1));
            }
        }
        return String.join(", ", shown);
    }

    private Cost scan(PostgresServer server, CpuClock clock, String way, Path root) throws Exception {
        ServerScans.drop(server.connect(), " CASCADE");
        String index = "";
        String using = "gin (lower(name) gin_trgm_ops)";
        String session = "";
        boolean after = way.equals("after") || way.startsWith("after:");
        if (way.startsWith("on:") || way.startsWith("after:")) {
            for (String part : way.substring(way.indexOf(':') + 1).split(";")) {
                if (part.startsWith("index:")) {
                    index = " WITH (" + part.substring(6).replace('/', ',') + ")";
                } else if (part.startsWith("using:")) {
                    using = part.substring(6).replace('/', ',');
                } else if (part.startsWith("session:")) {
                    session = (session.isEmpty() ? "" : session + " ") + "-c " + part.substring(8);
                } else {
                    throw new IllegalArgumentException("not index:… or session:…: " + part);
                }
            }
        }
        String url = server.url();
        if (!session.isEmpty()) {
            url += (url.contains("?") ? "&" : "?") + "options=" + java.net.URLEncoder.encode(session,
                    java.nio.charset.StandardCharsets.UTF_8);
        }
        try (FsIndex fs = FsIndex.builder().jdbcUrl(url).user(server.user()).password(server.password())
                .tablePrefix(PREFIX).nameSearchIndex(!way.equals("off") && !after).build()) {
            if (!index.isEmpty() || !using.startsWith("gin (")) {
                try (Connection c = server.connect(); Statement s = c.createStatement()) {
                    s.execute("DROP INDEX " + PREFIX + "files_name_trgm");
                    s.execute("CREATE INDEX " + PREFIX + "files_name_trgm ON " + PREFIX + "files USING " + using
                            + index);
                }
            }
            String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
            long wal0 = wal(server);
            CpuClock.Reading before = clock.read();
            fs.scan(root);
            if (after) {
                FsIndex.builder().jdbcUrl(url).user(server.user()).password(server.password()).tablePrefix(PREFIX)
                        .nameSearchIndex(true).build().close();
            }
            long end = System.nanoTime();
            // The backend that built the index served a connection closed since: counted once the postmaster has
            // reaped it.
            Thread.sleep(500);
            CpuClock.Reading spent = clock.read().minus(before);
            double walMb = (wal(server) - wal0) / 1048576.0;
            double indexMb = 0;
            double search = 0;
            if (!way.equals("off")) {
                try (IndexReader reader = FsIndex.builder().jdbcUrl(url).user(server.user())
                        .password(server.password()).tablePrefix(PREFIX).nameSearchIndex(true).buildReader()) {
                    FileQuery q = FileQuery.any().withNameContaining("q7x");
                    QueryBench.count(reader, q);
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 3; i++) {
                        QueryBench.count(reader, q);
                    }
                    search = (System.nanoTime() - t0) / 3e9;
                }
                try (Connection c = server.connect(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT pg_relation_size('" + PREFIX + "files_name_trgm')")) {
                    rs.next();
                    indexMb = rs.getLong(1) / 1048576.0;
                }
            }
            return new Cost((end - before.wallNanos()) / 1e9, spent.jvm(), spent.server(), walMb, indexMb, search,
                    load + "–" + Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        }
    }

    private static long wal(PostgresServer server) throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Medians per way, and each run's ratio to {@code off}'s scan of the same run (CPU: JVM and server together),
     * where {@code off} ran.
     */
    private void table(Map<String, List<Cost>> costs) {
        List<Cost> off = costs.get("off");
        out.println("| way | wall s | JVM CPU s | server CPU s | CPU ÷ off, each run | wall ÷ off, each run | WAL MB "
                + "| index MB | search s | load (1 min) |");
        out.println("|---|--:|--:|--:|---|---|--:|--:|--:|---|");
        costs.forEach((way, list) -> {
            Cost m = median(list);
            List<String> cpu = new ArrayList<>();
            List<String> wall = new ArrayList<>();
            for (int i = 0; off != null && i < list.size(); i++) {
                Cost c = list.get(i);
                cpu.add(String.format(Locale.ROOT, "%.2f", (c.jvm + c.server) / (off.get(i).jvm + off.get(i).server)));
                wall.add(String.format(Locale.ROOT, "%.2f", c.wall / off.get(i).wall));
            }
            String loads = String.join(", ", list.stream().map(Cost::load).toList());
            out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %s | %s | %.0f | %.1f | %.3f | %s |%n", way, m.wall,
                    m.jvm, m.server, String.join(", ", cpu), String.join(", ", wall), m.walMb, m.indexMb, m.search,
                    loads);
        });
        out.flush();
    }

    /** Each figure's median on its own. */
    private static Cost median(List<Cost> list) {
        return new Cost(med(list, Cost::wall), med(list, Cost::jvm), med(list, Cost::server), med(list, Cost::walMb),
                med(list, Cost::indexMb), med(list, Cost::search), "");
    }

    private static double med(List<Cost> list, java.util.function.ToDoubleFunction<Cost> f) {
        return Series.median(list.stream().map(f::applyAsDouble).toList());
    }
}
