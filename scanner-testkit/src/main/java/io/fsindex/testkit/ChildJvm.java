package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs running {@link ScanChildProcess} against one database, started together through a file barrier.
 * The children use this JVM's java and class path ({@link ChildJava}).
 */
public final class ChildJvm {
    /** A guard against a wedged child hanging the build, not a speed limit. */
    private static final long EXIT_WAIT_MINUTES = 3;

    private final Path barrier;
    private final Path properties;
    private final Properties settings;
    private final List<String> names = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();

    public ChildJvm(Path workDir, Properties fsindexProperties) throws IOException {
        this.settings = fsindexProperties;
        this.barrier = Files.createDirectories(workDir.resolve("barrier"));
        this.properties = workDir.resolve("fsindex.properties");
        ChildJava.writeSettings(fsindexProperties, properties);
    }

    /** Starts a child that will scan {@code root} {@code times} times once released (0: only open the index). */
    public void start(String name, Path root, int times) throws IOException {
        start(name, root, times, List.of());
    }

    /**
     * Starts a child that will scan {@code root} {@code times} times once released, each scan given {@code excludes}
     * as its rules (none given if empty), so that the first stores them where none are stored.
     */
    public void start(String name, Path root, int times, List<String> excludes) throws IOException {
        Path log = barrier.getParent().resolve(name + ".log");
        List<String> args = new ArrayList<>(List.of(properties.toString(), barrier.toString(), name,
                root.toString(), Integer.toString(times)));
        args.addAll(excludes);
        List<String> command = ChildJava.command(settings, List.of(), ScanChildProcess.class.getName(),
                args);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        names.add(name);
        logs.add(log);
        processes.add(pb.start());
    }

    /** Waits until every child is loaded and waiting, then lets them all go at once. */
    public void releaseWhenAllReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(EXIT_WAIT_MINUTES);
        for (int i = 0; i < names.size(); i++) {
            while (!Files.exists(barrier.resolve(names.get(i) + ".ready"))) {
                if (!processes.get(i).isAlive()) {
                    throw new AssertionError("child " + names.get(i) + " died before the barrier:\n"
                            + Files.readString(logs.get(i)));
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("child " + names.get(i) + " never reached the barrier");
                }
                Thread.sleep(10); // another JVM's progress can only be observed by polling
            }
        }
        Files.createFile(barrier.resolve(ScanChildProcess.GO));
    }

    /** True while any child is still running. */
    public boolean anyAlive() {
        return processes.stream().anyMatch(Process::isAlive);
    }

    /** Waits for every child and asserts each exited with 0, showing a failed child's output. */
    public void assertAllSucceed() throws IOException, InterruptedException {
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            if (!p.waitFor(EXIT_WAIT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("child " + names.get(i) + " did not finish:\n" + Files.readString(logs.get(i)));
            }
            assertThat(p.exitValue())
                    .as("exit code of child %s; its output:%n%s", names.get(i), Files.readString(logs.get(i)))
                    .isZero();
        }
    }

    /** Waits for the child {@code name} to exit and returns its exit code (see {@link ScanChildProcess}). */
    public int awaitExit(String name) throws IOException, InterruptedException {
        int i = names.indexOf(name);
        Process p = processes.get(i);
        if (!p.waitFor(EXIT_WAIT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("child " + name + " did not finish:\n" + output(name));
        }
        return p.exitValue();
    }

    /** Everything the child {@code name} printed so far. */
    public String output(String name) throws IOException {
        return Files.readString(logs.get(names.indexOf(name)));
    }

    /**
     * Changes the tree a step at a time with {@code churn} for as long as any child runs, then asserts each child
     * succeeded.
     */
    public void churnUntilAllSucceed(TreeChurn churn) throws IOException, InterruptedException {
        while (anyAlive()) {
            churn.step();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertAllSucceed();
    }

    /** Kills children still running, e.g. after a failed assertion. */
    public void destroyAll() {
        processes.forEach(Process::destroyForcibly);
    }
}
