package io.fsindex.innodb;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testservers.InnoDbContainer;
import io.fsindex.testservers.InnoDbServer.Engine;
import io.fsindex.testservers.InnoDbServer;
import io.fsindex.testservers.ServerSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One real server per engine for this module's whole test run: started on first use, stopped when the JVM exits,
 * never per test. By default it is a real MySQL 8.0.31 or MariaDB 10.11.5 server run by {@link InnoDbServer} from
 * binaries in test-scope Maven artifacts, with a fresh data directory on a free loopback port, or, when a Docker
 * engine is reachable, the {@code mysql:8.0} or {@code mariadb:10.11} image run by {@link InnoDbContainer}
 * ({@link ServerSource} says how to choose). Setting
 * {@code FSINDEX_TEST_MYSQL_URL} or {@code FSINDEX_TEST_MARIADB_URL} (environment variable or system property, with
 * {@code _USER} and {@code _PASSWORD} beside it) uses that server instead; the restart test then also needs
 * {@code _RESTART}, a shell command that restarts it. A server that cannot be had fails the tests with a message
 * saying how to get one.
 */
public final class TestServer {
    private static final String DATABASE = "fsindex_test";
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);
    private static TestServer mysql;
    private static TestServer mariadb;

    private final Engine engine;
    private final String envPrefix;
    private final String url;
    private final String user;
    private final String password;
    private final String restartCommand;
    private final InnoDbServer embedded;
    private InnoDbContainer container;

    private TestServer(Engine engine, String envPrefix, String url, String user, String password,
                       String restartCommand, InnoDbServer embedded) {
        this.engine = engine;
        this.envPrefix = envPrefix;
        this.url = url;
        this.user = user;
        this.password = password;
        this.restartCommand = restartCommand;
        this.embedded = embedded;
    }

    public static synchronized TestServer mysql() {
        if (mysql == null) {
            mysql = start(Engine.MYSQL, "FSINDEX_TEST_MYSQL");
        }
        return mysql;
    }

    public static synchronized TestServer mariadb() {
        if (mariadb == null) {
            mariadb = start(Engine.MARIADB, "FSINDEX_TEST_MARIADB");
        }
        return mariadb;
    }

    /** The server as the conformance suite wants it. */
    public TestDatabase database() {
        return new TestDatabase(url, user, password);
    }

    public String url() {
        return url;
    }

    /**
     * The MySQL server with local data allowed as {@code dialect-mysql/README.md} recommends, so that fsindex loads
     * new subtrees with {@code LOAD DATA LOCAL INFILE} (the embedded server allows it; an external one must have
     * {@code local_infile=ON}); MariaDB's dialect loads nothing.
     */
    public TestDatabase loadingDatabase() {
        return withUrlSetting("allowLoadLocalInfileInPath=" + NO_LOCAL_FILES);
    }

    /** A directory that does not exist: the only local files the driver may send are below it. */
    public static final String NO_LOCAL_FILES = "/nonexistent/fsindex-sends-only-its-own-rows";

    /** The server, with {@code setting} ({@code key=value}) added to the JDBC URL. */
    public TestDatabase withUrlSetting(String setting) {
        if (engine != Engine.MYSQL) {
            return database();
        }
        return new TestDatabase(url + (url.contains("?") ? "&" : "?") + setting, user, password);
    }

    /** A plain JDBC connection to the test database, outside any fsindex pool. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Stops the server and starts it again on the same data directory (for an external one: runs _RESTART). */
    public void restart() throws IOException, InterruptedException {
        if (embedded != null) {
            embedded.stop();
            embedded.start();
            return;
        }
        if (container != null) {
            container.restart();
            awaitConnection();
            return;
        }
        if (restartCommand == null) {
            throw new AssertionError("this test restarts the server, and " + envPrefix + "_URL points at an"
                    + " external one: set " + envPrefix + "_RESTART to a shell command that restarts it"
                    + " (keeping its data), or unset " + envPrefix + "_URL to use the embedded server");
        }
        Process p = new ProcessBuilder("sh", "-c", restartCommand).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new AssertionError(envPrefix + "_RESTART failed with exit code " + p.exitValue());
        }
        awaitConnection();
    }

    private static TestServer start(Engine engine, String envPrefix) {
        String external = setting(envPrefix + "_URL");
        if (external != null) {
            TestServer s = new TestServer(engine, envPrefix, external, setting(envPrefix + "_USER"),
                    setting(envPrefix + "_PASSWORD"), setting(envPrefix + "_RESTART"), null);
            try (Connection c = s.connect()) {
                return s;
            } catch (SQLException e) {
                throw new AssertionError("cannot connect to the external " + engine.label + " server at "
                        + external + " (" + envPrefix + "_URL): " + e.getMessage(), e);
            }
        }
        List<String> options = List.of("--max-connections=500", "--local-infile=1");
        if (ServerSource.current() == ServerSource.DOCKER) {
            try {
                InnoDbContainer c = InnoDbContainer.start(engine, DATABASE, options);
                Runtime.getRuntime().addShutdownHook(new Thread(c::close, "stop test " + engine.scheme));
                TestServer s = new TestServer(engine, envPrefix, c.url(), c.user(), c.password(), null, null);
                s.container = c;
                return s;
            } catch (IOException | RuntimeException e) {
                throw new AssertionError("cannot start the " + engine.label.split(" ")[0] + " test server from"
                        + " Docker image " + InnoDbContainer.image(engine) + ": " + e.getMessage() + "\nRun with -D"
                        + ServerSource.PROPERTY + "=artifacts to use the servers from Maven artifacts instead.", e);
            }
        }
        try {
            // Short, because the server's Unix socket lives there and its path must stay under 108 bytes.
            Path home = Files.createTempDirectory("fsindex-" + engine.scheme + "-");
            InnoDbServer server = InnoDbServer.install(engine, home, options);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> destroy(server), "stop test " + engine.scheme));
            server.start();
            try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
            }
            return new TestServer(engine, envPrefix, server.url(DATABASE), "root", "", null, server);
        } catch (IOException | SQLException | RuntimeException e) {
            throw new AssertionError("cannot start the embedded " + engine.label + " test server: " + e.getMessage()
                    + "\nTo run these tests against a server of your own, point " + envPrefix + "_URL (environment"
                    + " variable or -D system property, with " + envPrefix + "_USER and "
                    + envPrefix + "_PASSWORD) at a " + engine.label.split(" ")[0] + " server whose user may"
                    + " create tables in that database.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while starting the " + engine.label + " test server", e);
        }
    }

    /** Stops an embedded server at JVM exit and deletes its directory. */
    private static void destroy(InnoDbServer server) {
        server.close();
        try (Stream<Path> files = Files.walk(server.home())) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    private static String setting(String key) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            v = System.getenv(key);
        }
        return v == null || v.isBlank() ? null : v;
    }

    /** Waits for an external server that _RESTART restarted to accept connections again. */
    private void awaitConnection() throws InterruptedException {
        long deadline = System.nanoTime() + RESTART_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = connect()) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(100); // waiting for a process we do not control; nothing to latch on
            }
        }
        throw new IllegalStateException("the server did not accept connections within " + RESTART_TIMEOUT + ": "
                + (last == null ? "" : last.getMessage()));
    }

    /** Counts the InnoDB transactions waiting for a lock in a statement that names {@code prefix}'s tables. */
    public static String lockWaitsQuery(String prefix) {
        return "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
                + " AND trx_query LIKE '%" + prefix + "%'";
    }
}
