package io.fsindex.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class in a child JVM whose environment holds no locale variable ({@code LANG}, {@code LANGUAGE},
 * {@code LC_*}), as under cron, systemd or in a bare container, where the JVM reads file names as ASCII. The child
 * uses this JVM's java and the test class path.
 */
public final class LocaleFreeJvm {
    /** A guard against a wedged child hanging the build, not a speed limit. */
    private static final long EXIT_WAIT_MINUTES = 3;

    private LocaleFreeJvm() {
    }

    /** What a child printed (read as UTF-8) and how it exited. */
    public record Output(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout:\n" + stdout + "--- stderr:\n" + stderr;
        }
    }

    /** Runs {@code mainClass} with {@code args} and waits for it to end. */
    public static Output run(String mainClass, String... args) {
        return run(java(mainClass, args));
    }

    /**
     * A command running {@code mainClass} with {@code args}, every locale variable already removed from its
     * environment, for a caller that sets more variables or starts it itself.
     */
    public static ProcessBuilder java(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(ChildJava.java(), "-cp", ChildJava.testClassPath(), mainClass));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(LocaleFreeJvm::isLocaleVariable);
        return pb;
    }

    /** Runs {@code command}, with every locale variable removed from its environment, and waits for it to end. */
    public static Output run(ProcessBuilder command) {
        command.environment().keySet().removeIf(LocaleFreeJvm::isLocaleVariable);
        try {
            Process p = command.start();
            p.getOutputStream().close();
            // Each stream drains on its own thread so a chatty child cannot block on a full pipe.
            CompletableFuture<String> stdout = drain(p.getInputStream());
            CompletableFuture<String> stderr = drain(p.getErrorStream());
            if (!p.waitFor(EXIT_WAIT_MINUTES, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("child JVM did not finish: " + command.command());
            }
            return new Output(p.exitValue(), stdout.join(), stderr.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for a child JVM", e);
        }
    }

    /** True for the variables that choose a locale: {@code LANG}, {@code LANGUAGE} and every {@code LC_*}. */
    public static boolean isLocaleVariable(String name) {
        return name.equals("LANG") || name.equals("LANGUAGE") || name.startsWith("LC_");
    }

    private static CompletableFuture<String> drain(java.io.InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, task -> new Thread(task, "locale-free-jvm-drain").start());
    }
}
