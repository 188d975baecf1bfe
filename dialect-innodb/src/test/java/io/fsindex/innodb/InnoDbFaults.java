package io.fsindex.innodb;

import io.fsindex.testkit.ServerFaultCampaignConformanceTest.RestartableServer;
import io.fsindex.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault campaign's hooks on MySQL and MariaDB: a connection is marked by logging in as a user of its own, which
 * {@code information_schema.PROCESSLIST} shows, and killed with {@code KILL}; the server is restarted by
 * {@link TestServer#restart}.
 */
public final class InnoDbFaults {
    private static final List<String> HOSTS = List.of("%", "localhost", "127.0.0.1");

    private InnoDbFaults() {
    }

    /** The test database, logged in as user {@code marker} (created with every right on that database). */
    public static TestDatabase markedDatabase(TestServer server, String marker) throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            String database;
            try (ResultSet rs = s.executeQuery("SELECT DATABASE()")) {
                rs.next();
                database = rs.getString(1);
            }
            for (String host : HOSTS) {
                s.execute("CREATE USER IF NOT EXISTS '" + marker + "'@'" + host + "' IDENTIFIED BY '" + marker + "'");
                s.execute("GRANT ALL ON `" + database + "`.* TO '" + marker + "'@'" + host + "'");
            }
        }
        return new TestDatabase(server.url(), marker, marker);
    }

    /** Kills every session of user {@code marker}. */
    public static void killSessions(TestServer server, String marker) throws SQLException {
        try (Connection c = server.connect()) {
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?")) {
                s.setString(1, marker);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (long id : ids) {
                    try {
                        s.execute("KILL " + id);
                    } catch (SQLException gone) {
                        // the session ended between the listing and the KILL
                    }
                }
            }
        }
    }

    /** The shared server, restarted by {@link TestServer#restart} (an external one needs its _RESTART command). */
    public static RestartableServer restartable(TestServer server) {
        return new RestartableServer() {
            @Override
            public TestDatabase database() {
                return server.database();
            }

            @Override
            public void restart() throws Exception {
                server.restart();
            }
        };
    }
}
