package io.fsindex.testkit;

import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM that scans its roots in turn, again and again, until it is killed: the process the fault campaign
 * SIGKILLs at random moments. It opens the index first, announces {@code ready} by creating a file, waits for a
 * {@code go} file, then scans. Each line it prints is one of {@code started ID}, {@code completed ID},
 * {@code failed MESSAGE} (followed by the stack trace), so the killer can tell whether it struck mid-scan and which
 * scan it killed. Arguments: {@code <properties file> <lease ms> <ready file> <go file> <root>...}.
 */
public final class LoopingScanChild {
    private LoopingScanChild() {
    }

    /** Entry point for the child JVM; see the class documentation for arguments. */
    public static void main(String[] args) throws Exception {
        Properties properties = ChildJava.readSettings(Path.of(args[0]));
        Duration lease = Duration.ofMillis(Long.parseLong(args[1]));
        Path ready = Path.of(args[2]);
        Path go = Path.of(args[3]);
        List<Path> roots = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            roots.add(Path.of(args[i]));
        }
        PrintStream out = System.out;
        // Never outlive the test that started this JVM, whatever happens to it.
        ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
        Thread limit = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(15));
            } catch (InterruptedException ignored) {
                // halting anyway
            }
            Runtime.getRuntime().halt(4);
        }, "lifetime-limit");
        limit.setDaemon(true);
        limit.start();
        try (FsIndex index = FsIndex.builder().properties(properties).scanLease(lease).build()) {
            Files.createFile(ready);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!Files.exists(go)) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("never released by " + go);
                }
                Thread.sleep(2); // polling a file is the only signal two JVMs share here
            }
            ScanListener announce = new ScanListener() {
                @Override
                public void started(long scanId, Path root) {
                    out.println("started " + scanId);
                    out.flush();
                }
            };
            for (int i = 0; ; i++) {
                try {
                    ScanResult r = index.scan(roots.get(i % roots.size()),
                            ScanOptions.defaults().withListener(announce));
                    out.println("completed " + r.scanId());
                } catch (ScanFailedException e) {
                    out.println("failed " + String.valueOf(e.getMessage()).replace('\n', ' '));
                    e.printStackTrace(out);
                }
                out.flush();
            }
        }
    }

    /** A child started by {@link #start}, not yet released. */
    public static final class Handle {
        private final Process process;
        private final Path log;
        private final Path ready;
        private final Path go;

        private Handle(Process process, Path log, Path ready, Path go) {
            this.process = process;
            this.log = log;
            this.ready = ready;
            this.go = go;
        }

        /** Waits until the child has opened the index, then lets it scan. */
        public void release() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!Files.exists(ready)) {
                if (!process.isAlive()) {
                    throw new AssertionError("the scanning child died before it was ready:\n" + output());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the scanning child never got ready:\n" + output());
                }
                Thread.sleep(5); // another JVM's progress can only be observed by polling
            }
            Files.createFile(go);
        }

        /** Waits until the child has printed a line starting with {@code prefix}; false if it died first. */
        public boolean awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (System.nanoTime() < deadline) {
                if (output().lines().anyMatch(l -> l.startsWith(prefix))) {
                    return true;
                }
                if (!process.isAlive()) {
                    return false;
                }
                Thread.sleep(2); // another JVM's progress can only be observed by polling
            }
            return false;
        }

        /** SIGKILLs the child and waits until it is gone. */
        public void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                throw new AssertionError("a SIGKILLed child did not exit");
            }
        }

        /** The id of the scan the child was running when it was killed, or -1 if it was between scans. */
        public long scanCutShort() {
            List<String> lines = output().lines().toList();
            long last = -1;
            for (String line : lines) {
                if (line.startsWith("started ")) {
                    last = Long.parseLong(line.substring("started ".length()).strip());
                } else if (line.startsWith("completed ") || line.startsWith("failed ")) {
                    last = -1;
                }
            }
            return last;
        }

        /** Everything the child printed so far. */
        public String output() {
            try {
                return Files.exists(log) ? Files.readString(log) : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Starts a child with this JVM's java and class path that will scan {@code roots} in turn once released, its
     * files (properties, log, ready and go) named {@code name} in {@code workDir}.
     */
    public static Handle start(Properties fsindex, Duration lease, Path workDir, String name, List<Path> roots)
            throws IOException {
        Path props = workDir.resolve(name + ".properties");
        ChildJava.writeSettings(fsindex, props);
        Path log = workDir.resolve(name + ".log");
        Path ready = workDir.resolve(name + ".ready");
        Path go = workDir.resolve(name + ".go");
        List<String> args = new ArrayList<>(List.of(props.toString(), Long.toString(lease.toMillis()),
                ready.toString(), go.toString()));
        roots.forEach(r -> args.add(r.toString()));
        List<String> command = ChildJava.command(fsindex, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                LoopingScanChild.class.getName(), args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new Handle(p, log, ready, go);
    }
}
