package io.fsindex.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * CPU time on Linux, read from {@code /proc}: this JVM's own (by thread kind: the scan threads, the walker threads, the
 * JIT compilers, the garbage collector, the rest), its reaped child processes' (a baseline's {@code find} and
 * {@code sqlite3}), and a database server's. On a shared machine a step's wall time is mostly the wait for a CPU; its
 * CPU time is what the code itself costs. A poller thread reads each thread's time every 50 ms, so a thread that ends
 * between two reads loses at most that much.
 */
final class CpuClock implements AutoCloseable {
    /** The kinds of thread this JVM's CPU time is split into. */
    enum Kind { scan, walk, jit, gc, other }

    /** CPU seconds at one moment, everything cumulative. */
    record Reading(long wallNanos, double jvm, double children, double server, Map<Kind, Double> threads) {
        /** What happened between {@code earlier} and this reading. */
        Reading minus(Reading earlier) {
            Map<Kind, Double> t = new HashMap<>();
            for (Kind k : Kind.values()) {
                t.put(k, threads.getOrDefault(k, 0.0) - earlier.threads.getOrDefault(k, 0.0));
            }
            return new Reading(wallNanos - earlier.wallNanos, jvm - earlier.jvm, children - earlier.children,
                    server - earlier.server, t);
        }

        double wall() {
            return wallNanos / 1e9;
        }

        double thread(Kind k) {
            return threads.getOrDefault(k, 0.0);
        }
    }

    /** Clock ticks a second of {@code /proc}'s times (USER_HZ, 100 on Linux). */
    private static final double HZ = 100.0;

    private final Map<Long, Long> ticksByThread = new HashMap<>();
    private final Map<Long, Kind> kindByThread = new HashMap<>();
    private final Thread poller;
    private volatile boolean stop;
    /** The server's CPU ticks so far, or 0 when there is no server process to read. */
    private volatile LongSupplier serverTicks = () -> 0;

    CpuClock() {
        poller = new Thread(this::poll, "cpu-clock");
        poller.setDaemon(true);
        poller.start();
    }

    /** Reads the server's CPU from now on from {@code ticks}. */
    void server(LongSupplier ticks) {
        serverTicks = ticks == null ? () -> 0 : ticks;
    }

    Reading read() {
        pollOnce();
        long[] self = stat(Path.of("/proc/self/stat"));
        Map<Kind, Double> threads = new HashMap<>();
        synchronized (this) {
            ticksByThread.forEach((tid, ticks) -> threads.merge(kindByThread.get(tid), ticks / HZ, Double::sum));
        }
        return new Reading(System.nanoTime(), (self[0] + self[1]) / HZ, (self[2] + self[3]) / HZ,
                serverTicks.getAsLong() / HZ, threads);
    }

    private void poll() {
        while (!stop) {
            pollOnce();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void pollOnce() {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                long tid = Long.parseLong(task.getFileName().toString());
                String raw;
                try {
                    raw = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String comm = raw.substring(raw.indexOf('(') + 1, raw.lastIndexOf(')'));
                long[] t = fields(raw);
                long ticks = t[0] + t[1];
                // Read each time: a thread polled before the JVM named it shows the launcher's name first.
                kindByThread.put(tid, kindOf(comm));
                ticksByThread.merge(tid, ticks, Math::max);
            }
        } catch (IOException e) {
            // no /proc: every thread reads 0
        }
    }

    private static Kind kindOf(String comm) {
        if (comm.startsWith("fsindex-scan")) {
            return Kind.scan;
        }
        if (comm.startsWith("fsindex-walk")) {
            return Kind.walk;
        }
        if (comm.startsWith("C2 Compiler") || comm.startsWith("C1 Compiler")) {
            return Kind.jit;
        }
        if (comm.startsWith("G1 ") || comm.startsWith("GC Thread") || comm.startsWith("VM Thread")) {
            return Kind.gc;
        }
        return Kind.other;
    }

    /** utime, stime, cutime, cstime of a {@code /proc/PID/stat} file; zeros if it cannot be read. */
    static long[] stat(Path file) {
        try {
            return fields(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return new long[4];
        }
    }

    /** Fields 14–17 (utime, stime, cutime, cstime) and 4 (ppid) of a stat line, after the command's parentheses. */
    private static long[] fields(String raw) {
        String[] f = raw.substring(raw.lastIndexOf(')') + 2).trim().split(" ");
        // f[0] is field 3 (state): field k is f[k - 3]
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                Long.parseLong(f[14]), Long.parseLong(f[1])};
    }

    /**
     * A PostgreSQL server's CPU ticks: the postmaster's own and its reaped children's, and those of its children
     * still running (backends, background workers), found as the processes whose parent it is.
     */
    static long postgresTicks(long postmaster) {
        long[] pm = stat(Path.of("/proc/" + postmaster + "/stat"));
        long ticks = pm[0] + pm[1] + pm[2] + pm[3];
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p ->
                p.getFileName().toString().chars().allMatch(Character::isDigit))) {
            for (Path p : procs) {
                long[] s = stat(p.resolve("stat"));
                if (s.length > 4 && s[4] == postmaster) {
                    ticks += s[0] + s[1];
                }
            }
        } catch (IOException e) {
            // counted what could be read
        }
        return ticks;
    }

    /** A single-process server's (mysqld, mariadbd) CPU ticks, all its threads. */
    static long processTicks(long pid) {
        long[] s = stat(Path.of("/proc/" + pid + "/stat"));
        return s[0] + s[1];
    }

    /** The parent of process {@code pid}. */
    static long parentOf(long pid) {
        return stat(Path.of("/proc/" + pid + "/stat"))[4];
    }

    @Override
    public void close() {
        stop = true;
        poller.interrupt();
    }
}
