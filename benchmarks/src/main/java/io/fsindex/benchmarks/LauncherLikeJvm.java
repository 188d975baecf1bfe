package io.fsindex.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Sets a program up to start the way the command-line tool's launcher script starts the tool, so {@link Startup}
 * can show what an application gets from the same JVM options: the SQLite driver's native library copied out of its
 * jar once and loaded in place (its directory also the driver's temporary directory), a static class-data archive of
 * the classes one run of the program loads (written as the build writes the tool's), the serial collector and the
 * first JIT tier only, compiling after ten times the usual number of calls.
 */
final class LauncherLikeJvm {
    private LauncherLikeJvm() {
    }

    /** The JVM options to start the program with, and whether they include a class-data archive. */
    record Prepared(List<String> options, boolean archived) {
    }

    /**
     * Copies the native library into {@code dir}, runs {@code program} (its JVM arguments, class path, main class
     * and arguments) once to list the classes it loads, writes them into an archive, and returns the JVM options to
     * start it with from then on. A class path holding directories (a test's) cannot be archived by JDK 17: then
     * there is no archive.
     */
    static Prepared prepare(Path dir, List<String> program, String classPath)
            throws IOException, InterruptedException {
        Path lib = Files.createDirectories(dir.resolve("sqlite-native"));
        String name = LibraryLoaderUtil.getNativeLibName();
        try (InputStream in = LibraryLoaderUtil.class.getResourceAsStream(
                LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
            if (in == null) {
                throw new IOException("the SQLite driver has no native library for this machine");
            }
            Files.copy(in, lib.resolve(name));
        }
        if (Arrays.stream(classPath.split(File.pathSeparator)).anyMatch(e -> Files.isDirectory(Path.of(e)))) {
            return new Prepared(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-XX:CompileThresholdScaling=10", "-XX:-UsePerfData", "-Dorg.sqlite.lib.path=" + lib,
                    "-Dorg.sqlite.tmpdir=" + lib), false);
        }
        Path archive = dir.resolve("lookup.jsa");
        Path classList = dir.resolve("lookup.classlist");
        List<String> options = new ArrayList<>(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:CompileThresholdScaling=10", "-XX:-UsePerfData", "-Dorg.sqlite.lib.path=" + lib,
                "-Dorg.sqlite.tmpdir=" + lib, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> training = new ArrayList<>();
        training.add(java);
        training.addAll(options);
        training.add("-XX:DumpLoadedClassList=" + classList);
        training.addAll(program);
        run(training, dir);
        run(List.of(java, "-Xshare:dump", "-XX:+UseSerialGC", "-XX:SharedClassListFile=" + classList,
                "-XX:SharedArchiveFile=" + archive, "-cp", classPath), dir);
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("writing the class-data archive left no " + archive);
        }
        Files.delete(classList);
        options.add("-XX:SharedArchiveFile=" + archive);
        return new Prepared(options, true);
    }

    /** Runs {@code command} to its end; fails with what it printed if it did not exit with 0. */
    private static void run(List<String> command, Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve("training.txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("writing the class-data archive failed: " + command + "\n"
                    + Files.readString(log));
        }
        Files.delete(log);
    }
}
