package io.fsindex.postgres;

import io.fsindex.testkit.ServerFaultCampaignConformanceTest;
import io.fsindex.testkit.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;

/**
 * The fault campaign on PostgreSQL: SIGKILLed scanning processes, processes under churn and killed connections on the
 * shared server (see {@link PostgresTestServer}); the restarts on an embedded server of the test's own, since they
 * stop it.
 */
class PostgresFaultCampaignTest extends ServerFaultCampaignConformanceTest {
    private static Restartable restartable;

    @Override
    protected TestDatabase database() {
        return PostgresTestServer.database();
    }

    /** PostgreSQL shows each session's {@code ApplicationName} in {@code pg_stat_activity}. */
    @Override
    protected TestDatabase markedDatabase(String marker) {
        TestDatabase db = database();
        String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "ApplicationName=" + marker;
        return new TestDatabase(url, db.user(), db.password(), db.settings());
    }

    @Override
    protected void killSessions(String marker) throws Exception {
        TestDatabase db = database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     + " WHERE application_name = ?")) {
            s.setString(1, marker);
            s.executeQuery().close();
        }
    }

    /** The one restartable server, its database with this class's settings (a mode's subclass has its own). */
    @Override
    protected RestartableServer restartableServer() throws Exception {
        RestartableServer shared = sharedRestartable();
        return new RestartableServer() {
            @Override
            public TestDatabase database() {
                TestDatabase d = shared.database();
                return new TestDatabase(d.jdbcUrl(), d.user(), d.password(),
                        PostgresFaultCampaignTest.this.database().settings());
            }

            @Override
            public void restart() throws Exception {
                shared.restart();
            }
        };
    }

    private static synchronized RestartableServer sharedRestartable() throws IOException {
        if (restartable == null) {
            restartable = new Restartable(Files.createTempDirectory("fsindex-pg-restart-"));
        }
        return restartable;
    }

    /** An embedded server on a port of its own that {@link #restart} stops (fast shutdown) and starts again. */
    private static final class Restartable implements RestartableServer {
        private final Path data;
        private final int port;
        private EmbeddedPostgres server;

        Restartable(Path data) throws IOException {
            this.data = data;
            try (ServerSocket s = new ServerSocket(0)) {
                this.port = s.getLocalPort();
            }
            server = start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the temporary directory is all that is left behind
                }
                PostgresTestServer.deleteTree(data);
            }, "stop-restartable-postgres"));
        }

        private EmbeddedPostgres start() throws IOException {
            return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port)
                    .setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off")
                    .setPGStartupWait(Duration.ofSeconds(60)).start();
        }

        @Override
        public TestDatabase database() {
            return new TestDatabase(server.getJdbcUrl("postgres", "postgres"), null, null);
        }

        @Override
        public synchronized void restart() throws IOException {
            server.close();
            server = start();
        }
    }
}
