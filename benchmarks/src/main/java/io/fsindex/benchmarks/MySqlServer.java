package io.fsindex.benchmarks;

import io.fsindex.testservers.InnoDbServer;
import io.fsindex.testservers.InnoDbServer.Engine;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A MySQL 8.0.31 or MariaDB 10.11.5 server for one benchmark run, started by {@link InnoDbServer} as the tests of
 * dialect-mysql and dialect-mariadb start theirs, with {@code local_infile} on for the {@code LOAD DATA LOCAL INFILE}
 * baseline and a fresh database of the benchmark's own. Stopped (SIGTERM) by {@link #close()}.
 */
final class MySqlServer implements AutoCloseable {
    static final String DATABASE = "fsindex_bench";

    private final InnoDbServer server;

    private MySqlServer(InnoDbServer server) {
        this.server = server;
    }

    /** Unpacks, initialises and starts a server in {@code home} (a short path: it holds the Unix socket). */
    static MySqlServer start(Engine engine, Path home) throws IOException, InterruptedException, SQLException {
        InnoDbServer server = InnoDbServer.install(engine, home, List.of("--max-connections=200", "--local-infile=1"));
        try {
            server.start();
            try (Connection c = DriverManager.getConnection(server.url(""), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
            }
            return new MySqlServer(server);
        } catch (IOException | InterruptedException | SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The benchmark database's URL, as fsindex gets it. */
    String url() {
        return server.url(DATABASE);
    }

    /**
     * The URL for the baseline's connection and fsindex's: the same, with the driver's LOCAL INFILE switch on, so that
     * fsindex loads new subtrees as the baseline loads its rows (MySQL's Connector/J has it off by default).
     */
    String loadDataUrl() {
        return url() + (server.engine() == Engine.MYSQL ? "&allowLoadLocalInfile=true" : "?allowLocalInfile=true");
    }

    String user() {
        return "root";
    }

    Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, "root", "");
    }

    String version() {
        String label = server.engine().label;
        try (Connection c = connect(url()); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT VERSION()")) {
            return rs.next() ? label.split(" ")[0] + " " + rs.getString(1) : label;
        } catch (SQLException e) {
            return label;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
