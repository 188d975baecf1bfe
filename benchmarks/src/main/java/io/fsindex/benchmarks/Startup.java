package io.fsindex.benchmarks;

import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Times fresh JVMs in one sitting: {@code java -version}, a small program opening an SQLite index and answering one
 * lookup ({@link StartupLookup}), the command-line tool's {@code info} with and without a UTF-8 locale, through
 * its launcher script and through {@code java -jar}, and an empty program ({@link StartupFloor}); several
 * repetitions, taken in turns so a load spike hits all of them alike, medians compared.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.Startup --runs 9
 * </pre>
 */
@Command(name = "startup", mixinStandardHelpOptions = true,
        description = "Times java -version, a first lookup in a fresh JVM and the CLI's info, and prints one table.")
public final class Startup implements Callable<Integer> {
    /** The most a fresh JVM may take to open an SQLite index and answer a lookup, in seconds. */
    static final double LOOKUP_TARGET_SECONDS = 0.5;
    /** The most {@code fsindex info} may take, in multiples of {@code java -version}. */
    static final double INFO_TARGET_RATIO = 2.0;

    @Option(names = "--runs", defaultValue = "9", paramLabel = "N", description = "repetitions of each; medians shown")
    int runs;
    @Option(names = "--cli-dir", defaultValue = "examples/target", paramLabel = "DIR",
            description = "where the command-line tool's launcher script fsindex and its fsindex.jar are")
    Path cliDir;
    @Option(names = "--entries", defaultValue = "2000", paramLabel = "N", description = "entries in the index")
    long entries;
    @Option(names = "--work-dir", paramLabel = "DIR", description = "where to create the tree and database")
    Path workDir;
    @Option(names = "--before-cli-dir", paramLabel = "DIR", description = "another build's launcher script and jar"
            + " (fsindex, fsindex.jar, and its archive if it has one), timed in the same turns as a before row")
    Path beforeCliDir;

    private PrintWriter out;
    private PrintWriter progress;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with the table going to {@code out} and progress to {@code progress}. */
    static int execute(String[] args, PrintWriter out, PrintWriter progress) {
        Startup startup = new Startup();
        startup.out = out;
        startup.progress = progress;
        CommandLine cli = new CommandLine(startup);
        cli.setOut(out);
        cli.setErr(progress);
        return cli.execute(args);
    }

    /** One process to time: its name in the table, its command and whether it runs with a UTF-8 locale. */
    private record Measured(String name, List<String> command, boolean locale) {
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path script = cliDir.resolve("fsindex").toAbsolutePath();
        Path jar = cliDir.resolve("fsindex.jar").toAbsolutePath();
        if (!Files.isExecutable(script) || !Files.isRegularFile(jar)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "no command-line tool in " + cliDir
                    + " (fsindex and fsindex.jar): build it first (mvn -B -q package -DskipTests) or give --cli-dir");
        }
        Path run = Files.createTempDirectory(workDir == null ? Path.of(System.getProperty("java.io.tmpdir"))
                : workDir, "fsindex-startup-");
        try {
            Path root = Files.createDirectories(run.resolve("tree")).toRealPath();
            new TreeGenerator(TreeGenerator.Shape.of(entries, 42)).generate(root, 2);
            Path deepest;
            try (Stream<Path> all = Files.walk(root)) {
                deepest = all.filter(Files::isRegularFile).max(Comparator.comparingInt(Path::getNameCount)
                        .thenComparing(Comparator.naturalOrder())).orElseThrow();
            }
            String url = "jdbc:sqlite:" + run.resolve("startup.db");
            try (FsIndex index = FsIndex.builder().jdbcUrl(url).build()) {
                index.scan(root);
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> info = List.of(script.toString(), "info", "--db", url);
            List<String> infoJar = List.of(java, "-jar", jar.toString(), "info", "--db", url);
            String classPath = absoluteClassPath();
            List<String> lookupCommand = List.of(java, "-cp", classPath, StartupLookup.class.getName(), url,
                    deepest.toString());
            List<String> tunedLookup = new ArrayList<>(List.of(java));
            LauncherLikeJvm.Prepared launcherLike = LauncherLikeJvm.prepare(run,
                    lookupCommand.subList(1, lookupCommand.size()), classPath);
            tunedLookup.addAll(launcherLike.options());
            tunedLookup.addAll(lookupCommand.subList(1, lookupCommand.size()));
            List<Measured> measured = new ArrayList<>(List.of(
                    new Measured("java -version", List.of(java, "-version"), true),
                    new Measured("lookup", lookupCommand, true),
                    new Measured("info", info, true),
                    new Measured("info without locale", info, false),
                    new Measured("java -jar info", infoJar, true),
                    new Measured("java -jar info without locale", infoJar, false),
                    new Measured("lookup", tunedLookup, true),
                    new Measured("empty main", List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                            classPath, StartupFloor.class.getName()), true)));
            if (beforeCliDir != null) {
                measured.add(new Measured("info", List.of(beforeCliDir.resolve("fsindex").toAbsolutePath().toString(),
                        "info", "--db", url), true));
            }
            double[][] seconds = new double[measured.size()][runs];
            double[][] cpu = new double[measured.size()][runs];
            double[][] inJvm = new double[2][runs];
            for (int r = 0; r < runs; r++) {
                for (int k = 0; k < measured.size(); k++) {
                    int m = (k + r) % measured.size();    // each run starts with another, so no one always goes first
                    Measured what = measured.get(m);
                    long start = System.nanoTime();
                    String printed = time(what, run);
                    seconds[m][r] = (System.nanoTime() - start) / 1e9;
                    cpu[m][r] = cpuSeconds(run);
                    if (what.name().equals("lookup") && m == 1) {
                        String[] parts = printed.trim().split(" ");
                        if (!parts[0].equals("FOUND")) {
                            throw new IllegalStateException("the lookup found no entry at " + deepest + ": " + printed);
                        }
                        inJvm[0][r] = Double.parseDouble(parts[1]) / 1000;
                        inJvm[1][r] = Double.parseDouble(parts[2]) / 1000;
                    }
                }
                progress.printf("run %d of %d done%n", r + 1, runs);
            }
            double javaVersion = median(seconds[0]);
            double lookup = median(seconds[1]);
            double infoLocale = median(seconds[2]);
            double infoNoLocale = median(seconds[3]);
            double javaCpu = median(cpu[0]);
            out.printf(Locale.ROOT, "| fresh JVM (%d runs, medians) | wall s (min–max) | ÷ java -version | CPU s"
                    + " | ÷ java -version | target (wall) | met |%n", runs);
            out.println("|---|--:|--:|--:|--:|---|---|");
            row("`java -version`", seconds[0], javaVersion, cpu[0], javaCpu, "", null);
            row("`build()` + `lookup(path)` on SQLite (" + entries + " entries)", seconds[1], javaVersion, cpu[1],
                    javaCpu, "≤ " + LOOKUP_TARGET_SECONDS + " s", lookup <= LOOKUP_TARGET_SECONDS);
            row("`fsindex info`, `LANG=C.UTF-8`", seconds[2], javaVersion, cpu[2], javaCpu,
                    "≤ " + INFO_TARGET_RATIO + " ×", infoLocale <= INFO_TARGET_RATIO * javaVersion);
            row("`fsindex info`, no locale set", seconds[3], javaVersion, cpu[3], javaCpu, "", null);
            row("`java -jar fsindex.jar info`, `LANG=C.UTF-8`", seconds[4], javaVersion, cpu[4], javaCpu, "", null);
            row("`java -jar fsindex.jar info`, no locale set", seconds[5], javaVersion, cpu[5], javaCpu, "", null);
            row("`build()` + `lookup(path)`, JVM set up as the launcher sets up its own"
                    + (launcherLike.archived() ? "" : " (no archive: the class path holds directories)"), seconds[6],
                    javaVersion,
                    cpu[6], javaCpu, "≤ " + LOOKUP_TARGET_SECONDS + " s", median(seconds[6]) <= LOOKUP_TARGET_SECONDS);
            row("an empty `main` (`StartupFloor`), same class path, serial GC, C1 only", seconds[7], javaVersion,
                    cpu[7], javaCpu, "", null);
            if (beforeCliDir != null) {
                row("`fsindex info`, `LANG=C.UTF-8`, before (" + beforeCliDir + ")", seconds[8], javaVersion, cpu[8],
                        javaCpu, "", null);
            }
            out.println();
            out.printf(Locale.ROOT, "- Inside the lookup's JVM: `build()` %.3f s, `lookup` %.3f s (medians); the rest"
                    + " is the JVM starting and stopping.%n", median(inJvm[0]), median(inJvm[1]));
            out.printf(Locale.ROOT, "- Without a locale, `info` ÷ with one: %.2f through the script, %.2f through"
                    + " `java -jar` (which starts a second JVM then).%n", infoNoLocale / infoLocale,
                    median(seconds[5]) / median(seconds[4]));
            out.flush();
            return 0;
        } finally {
            deleteTree(run);
        }
    }

    private void row(String name, double[] all, double reference, double[] cpu, double cpuReference, String target,
                     Boolean met) {
        double[] sorted = all.clone();
        Arrays.sort(sorted);
        double median = median(all);
        double cpuMedian = median(cpu);
        out.printf(Locale.ROOT, "| %s | %.3f (%.3f–%.3f) | %.2f | %s | %s | %s | %s |%n", name, median, sorted[0],
                sorted[sorted.length - 1], median / reference,
                Double.isNaN(cpuMedian) ? "-" : String.format(Locale.ROOT, "%.3f", cpuMedian),
                Double.isNaN(cpuMedian) ? "-" : String.format(Locale.ROOT, "%.2f", cpuMedian / cpuReference),
                target, met == null ? "" : met ? "yes" : "NO");
    }

    /**
     * The CPU time, user and system, of the process {@link #time} ran last, as {@code /usr/bin/time} wrote it; NaN
     * without {@code /usr/bin/time}. On a machine shared with other work, CPU time moves far less than wall time.
     */
    private static double cpuSeconds(Path dir) throws IOException {
        Path f = dir.resolve(CPU_FILE);
        if (!Files.exists(f)) {
            return Double.NaN;
        }
        String[] userSystem = Files.readString(f).trim().split("\\s+");
        Files.delete(f);
        return Double.parseDouble(userSystem[userSystem.length - 2])
                + Double.parseDouble(userSystem[userSystem.length - 1]);
    }

    private static final Path GNU_TIME = Path.of("/usr/bin/time");
    private static final String CPU_FILE = "cpu.txt";

    /** Runs {@code what} to its end in {@code dir} and returns what it printed; fails if it did not exit with 0. */
    private static String time(Measured what, Path dir) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(GNU_TIME)) {
            command.addAll(List.of(GNU_TIME.toString(), "-f", "%U %S", "-o", dir.resolve(CPU_FILE).toString()));
        }
        command.addAll(what.command());
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.equals("LANG") || k.equals("LANGUAGE") || k.startsWith("LC_")
                || k.equals("JAVA_TOOL_OPTIONS") || k.equals("JDK_JAVA_OPTIONS") || k.startsWith("FSINDEX_"));
        if (what.locale()) {
            env.put("LANG", "C.UTF-8");
        }
        Path err = dir.resolve("stderr.txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(what.name() + " exited with " + exit + ": " + printed
                    + Files.readString(err));
        }
        return printed;
    }

    /** This JVM's class path with every entry absolute, since the timed processes run in another directory. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
