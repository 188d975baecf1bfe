package io.fsindex.testservers;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import io.fsindex.testservers.InnoDbServer.Engine;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.MariaDBContainer;
import org.testcontainers.containers.MySQLContainer;

/**
 * A MySQL ({@code mysql:8.0}) or MariaDB ({@code mariadb:10.11}) server in a Docker container started through
 * Testcontainers: what {@link InnoDbServer} runs from Maven artifacts, for machines with a Docker engine
 * ({@link ServerSource#DOCKER}). The container's port is bound to a fixed host port, so the JDBC URL stays the same
 * across a {@link #restart}.
 */
public final class InnoDbContainer implements AutoCloseable {
    private static final int PORT = 3306;
    private static final String PASSWORD = "fsindex";

    private final Engine engine;
    private final JdbcDatabaseContainer<?> container;
    private final int hostPort;
    private final String database;

    private InnoDbContainer(Engine engine, JdbcDatabaseContainer<?> container, int hostPort, String database) {
        this.engine = engine;
        this.container = container;
        this.hostPort = hostPort;
        this.database = database;
    }

    /**
     * The Docker image for {@code engine}.
     *
     * @param engine the engine
     * @return the image name and tag
     */
    public static String image(Engine engine) {
        return engine == Engine.MYSQL ? "mysql:8.0" : "mariadb:10.11";
    }

    /**
     * Starts {@code engine}'s image with an empty database {@code database} (utf8mb4) that user {@code root} owns, the
     * server running with {@code options} (e.g. {@code --local-infile=1}), and waits until it accepts connections.
     *
     * @param engine   the engine
     * @param database the database to create
     * @param options  server command-line options
     * @return the running server
     * @throws IOException if no free port can be had
     */
    @SuppressWarnings("resource") // closed by the caller
    public static InnoDbContainer start(Engine engine, String database, List<String> options) throws IOException {
        int hostPort;
        try (ServerSocket s = new ServerSocket(0)) {
            hostPort = s.getLocalPort();
        }
        JdbcDatabaseContainer<?> c = engine == Engine.MYSQL ? new MySQLContainer<>(image(engine))
                : new MariaDBContainer<>(image(engine));
        List<String> command = new ArrayList<>(List.of("--character-set-server=utf8mb4",
                "--innodb-flush-log-at-trx-commit=2"));
        command.addAll(options);
        c.withDatabaseName(database).withUsername("root").withPassword(PASSWORD)
                .withCommand(command.toArray(String[]::new))
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(
                        new PortBinding(Ports.Binding.bindPort(hostPort), ExposedPort.tcp(PORT))));
        c.start();
        return new InnoDbContainer(engine, c, hostPort, database);
    }

    /**
     * A JDBC URL for the database, as {@link InnoDbServer#url} spells it.
     *
     * @return the URL
     */
    public String url() {
        return "jdbc:" + engine.scheme + "://" + container.getHost() + ":" + hostPort + "/" + database
                + (engine == Engine.MYSQL ? "?sslMode=DISABLED&allowPublicKeyRetrieval=true" : "");
    }

    /**
     * The user, {@code root}.
     *
     * @return the user
     */
    public String user() {
        return "root";
    }

    /**
     * The user's password.
     *
     * @return the password
     */
    public String password() {
        return PASSWORD;
    }

    /** Restarts the container (a clean server shutdown and start, data kept); returns before it accepts connections. */
    public void restart() {
        DockerClientFactory.instance().client().restartContainerCmd(container.getContainerId()).exec();
    }

    /** Stops and removes the container. */
    @Override
    public void close() {
        container.stop();
    }
}
