package io.fsindex.testservers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Where the test servers come from: Docker images run by Testcontainers ({@code postgres:16}, {@code mysql:8.0},
 * {@code mariadb:10.11}) or the binaries inside Maven artifacts that {@link InnoDbServer} and {@link PostgresServer}
 * run. The choice is the system property {@value #PROPERTY} or else the environment variable {@value #VARIABLE}:
 * {@code docker}, {@code artifacts} or {@code auto} (the default: Docker when an engine is reachable, the artifacts
 * otherwise). It is made once per JVM and printed as one line on standard error.
 */
public enum ServerSource {
    /** Servers in Docker containers, started through Testcontainers. */
    DOCKER,
    /** Servers run from the binaries in Maven artifacts; needs no Docker. */
    ARTIFACTS;

    /** The system property that picks the source: docker, artifacts or auto. */
    public static final String PROPERTY = "fsindex.testServers";
    /** The environment variable read when the system property is not set. */
    public static final String VARIABLE = "FSINDEX_TEST_SERVERS";

    private static ServerSource current;

    /**
     * The source this JVM's tests use, chosen on first call from {@value #PROPERTY} or {@value #VARIABLE} and
     * whether a Docker engine is reachable; the choice and why are printed on standard error.
     *
     * @return the source
     * @throws IllegalArgumentException if the setting is not docker, artifacts or auto
     */
    public static synchronized ServerSource current() {
        if (current == null) {
            String property = System.getProperty(PROPERTY);
            String setting = property != null && !property.isBlank() ? property : System.getenv(VARIABLE);
            boolean[] probed = new boolean[2];
            current = choose(setting, () -> {
                probed[0] = true;
                probed[1] = DockerProbe.reachable();
                return probed[1];
            });
            System.err.println("fsindex test servers: " + describe(current) + ", since "
                    + (probed[0] ? (probed[1] ? "a Docker engine is reachable" : "no Docker engine is reachable")
                    : PROPERTY + "=" + setting.strip()) + " (-D" + PROPERTY + "=docker|artifacts|auto chooses)");
        }
        return current;
    }

    /**
     * Decides the source from a setting and, only when the setting leaves it open, whether Docker is reachable.
     *
     * @param setting         docker, artifacts, auto (any case, blanks ignored), or {@code null}/blank for auto
     * @param dockerReachable asked only for auto
     * @return the source
     * @throws IllegalArgumentException if the setting is anything else; the message says what is accepted
     */
    public static ServerSource choose(String setting, BooleanSupplier dockerReachable) {
        String s = setting == null ? "" : setting.strip().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "docker" -> DOCKER;
            case "artifacts" -> ARTIFACTS;
            case "", "auto" -> dockerReachable.getAsBoolean() ? DOCKER : ARTIFACTS;
            default -> throw new IllegalArgumentException(PROPERTY + " (or " + VARIABLE + ") is '" + setting
                    + "'; expected docker (Testcontainers), artifacts (servers from Maven artifacts, no Docker) or"
                    + " auto (Docker when reachable)");
        };
    }

    private static String describe(ServerSource source) {
        return source == DOCKER ? "Docker images through Testcontainers (postgres:16, mysql:8.0, mariadb:10.11)"
                : "servers from Maven artifacts (PostgreSQL 16.6, MySQL 8.0.31, MariaDB 10.11.5)";
    }

    /** Whether a Docker engine answers, asked cheaply first so machines without Docker pay nothing. */
    static final class DockerProbe {
        private DockerProbe() {
        }

        static boolean reachable() {
            if (System.getenv("DOCKER_HOST") == null && !Files.exists(Path.of("/var/run/docker.sock"))
                    && !Files.exists(Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"))
                    && !Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"))) {
                return false;   // nothing Testcontainers could find: skip its slower, noisier search
            }
            try {
                return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        }
    }
}
