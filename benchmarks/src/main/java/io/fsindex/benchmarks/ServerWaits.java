package io.fsindex.benchmarks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Samples what the database server's sessions are doing while the scale scenario runs, from a connection of its own:
 * on PostgreSQL {@code pg_stat_activity}, on MySQL and MariaDB {@code information_schema.innodb_trx}. Each sample
 * adds the time since the previous one to every session's state, so the totals are session-seconds: waiting for the
 * feed head's row lock (the statement waiting names the feed table), waiting for any other lock, running in the
 * server, and open in a transaction while the scanner works on its side ("in the client").
 */
final class ServerWaits implements AutoCloseable {
    /**
     * Session-seconds in each state, and the statements that waited longest for other locks (their first words,
     * with the seconds each waited).
     */
    record Totals(double feedHead, double otherLocks, double running, double inClient, int samples,
                  Map<String, Double> otherLockStatements) {
        /** The {@code n} statements that waited longest for other locks, as "seconds: statement" text. */
        String longestOtherWaits(int n) {
            return otherLockStatements.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(n)
                    .map(e -> String.format(Locale.ROOT, "%.1f s `%s`", e.getValue(), e.getKey()))
                    .collect(Collectors.joining(", "));
        }
    }

    private final Connection c;
    private final boolean postgres;
    private final String feedTable;
    private final Thread thread;
    private volatile boolean stop;
    private double feedHead;
    private double otherLocks;
    private double running;
    private double inClient;
    private int samples;
    private final Map<String, Double> otherLockStatements = new HashMap<>();
    private SQLException failure;

    /** Starts sampling every {@code intervalMillis} on {@code c} (closed with this) for the tables of {@code prefix}. */
    ServerWaits(Connection c, boolean postgres, String prefix, long intervalMillis) {
        this.c = c;
        this.postgres = postgres;
        this.feedTable = (prefix + "feed").toLowerCase(Locale.ROOT);
        this.thread = new Thread(() -> run(intervalMillis), "server-waits");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(long intervalMillis) {
        String sql = postgres
                ? "SELECT wait_event_type, state, query FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'"
                : "SELECT trx_state, trx_query FROM information_schema.innodb_trx"
                + " WHERE trx_mysql_thread_id <> CONNECTION_ID()";
        long last = System.nanoTime();
        try (Statement s = c.createStatement()) {
            while (!stop) {
                Thread.sleep(intervalMillis);    // a server's sessions can only be observed by polling
                long now = System.nanoTime();
                double dt = (now - last) / 1e9;
                last = now;
                try (ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        classify(rs, dt);
                    }
                }
                synchronized (this) {
                    samples++;
                }
            }
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void classify(ResultSet rs, double dt) throws SQLException {
        if (postgres) {
            String waitType = rs.getString(1);
            String state = rs.getString(2);
            String query = String.valueOf(rs.getString(3)).toLowerCase(Locale.ROOT);
            if ("Lock".equals(waitType)) {
                if (query.contains(feedTable)) {
                    feedHead += dt;
                } else {
                    otherLocks += dt;
                    otherLockStatements.merge(shortly(query), dt, Double::sum);
                }
            } else if ("active".equals(state)) {
                running += dt;
            } else {
                inClient += dt;
            }
        } else {
            String state = rs.getString(1);
            String query = rs.getString(2);
            if ("LOCK WAIT".equals(state)) {
                if (query != null && query.toLowerCase(Locale.ROOT).contains(feedTable)) {
                    feedHead += dt;
                } else {
                    otherLocks += dt;
                    otherLockStatements.merge(shortly(String.valueOf(query)), dt, Double::sum);
                }
            } else if (query != null) {
                running += dt;
            } else {
                inClient += dt;
            }
        }
    }

    /** A statement's first words, enough to tell which of fsindex's statements it is. */
    private static String shortly(String query) {
        String oneLine = query.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 70 ? oneLine : oneLine.substring(0, 70) + "…";
    }

    /** Stops sampling and returns the totals. */
    Totals stop() throws SQLException, InterruptedException {
        stop = true;
        thread.join();
        if (failure != null) {
            throw failure;
        }
        synchronized (this) {
            return new Totals(feedHead, otherLocks, running, inClient, samples, Map.copyOf(otherLockStatements));
        }
    }

    @Override
    public void close() throws SQLException {
        stop = true;
        c.close();
    }
}
