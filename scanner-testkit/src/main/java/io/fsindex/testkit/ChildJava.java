package io.fsindex.testkit;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The command lines of the test kit's child JVMs: this JVM's java and class path, and a class-data archive of what
 * opening an index and scanning loads, written once per test JVM by {@link ChildClassTraining}. A child with the
 * archive starts in about half the CPU time, and a fault campaign starts dozens of children beside the test on a
 * machine of two cores. JDK 17 archives classes from jars only, so the test's class path directories (the module
 * under test's classes) are packed into jars once, in the same place on the children's class path. Where no archive
 * can be written the children start with the test's class path as it is, which changes nothing but their start.
 */
final class ChildJava {
    /** A guard against a wedged training run hanging the build, not a speed limit. */
    private static final long TRAINING_MINUTES = 2;
    /** Keeps a child quiet about an archive it cannot use: tests read what children print. */
    private static final List<String> QUIET_ARCHIVE = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    /** Keeps jOOQ's banner and tips out of what children print. */
    private static final List<String> QUIET_JOOQ = List.of("-Dorg.jooq.no-logo=true", "-Dorg.jooq.no-tips=true");

    private static Prepared prepared;

    /** The children's class path, and their archive of it (null if none could be written). */
    private record Prepared(String classPath, Path archive) {
    }

    private ChildJava() {
    }

    /**
     * The command that runs {@code mainClass} with {@code args} in a child JVM started with {@code options}; the
     * first call writes the archive by opening an index with {@code fsindex}'s settings (under a table prefix of its
     * own) and scanning a small tree.
     */
    static List<String> command(Properties fsindex, List<String> options, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(java());
        Prepared children = prepared(fsindex);
        if (children.archive != null) {
            command.add("-XX:SharedArchiveFile=" + children.archive);
            command.addAll(QUIET_ARCHIVE);
        }
        command.addAll(options);
        command.addAll(QUIET_JOOQ);
        command.addAll(List.of("-cp", children.classPath, mainClass));
        command.addAll(args);
        return command;
    }

    private static synchronized Prepared prepared(Properties fsindex) {
        if (prepared == null) {
            prepared = prepare(fsindex);
        }
        return prepared;
    }

    /**
     * Packs the class path's directories and writes the archive; without it, with the reason on standard error, if
     * this JDK or class path cannot have one.
     */
    private static Prepared prepare(Properties fsindex) {
        String testClassPath = testClassPath();
        try {
            Path dir = Files.createTempDirectory("fsindex-child-classes");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Trees.delete(dir)));
            String classPath = packed(testClassPath, dir);
            Properties training = new Properties();
            training.putAll(fsindex);
            training.setProperty("fsindex.tablePrefix", "cds" + ProcessHandle.current().pid() + "_");
            Path settings = writeSettings(training, dir.resolve("training.properties"));
            Path jsa = dir.resolve("children.jsa");
            Path log = dir.resolve("training.log");
            List<String> command = new ArrayList<>(List.of(java(), "-XX:ArchiveClassesAtExit=" + jsa));
            command.addAll(QUIET_ARCHIVE);
            command.addAll(QUIET_JOOQ);
            command.addAll(List.of("-cp", classPath, ChildClassTraining.class.getName(), settings.toString(),
                    dir.resolve("tree").toString()));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(TRAINING_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return unarchived(testClassPath, "the training run did not end");
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(jsa)) {
                return unarchived(testClassPath, "the training run exited with " + p.exitValue() + ":\n"
                        + Files.readString(log));
            }
            return new Prepared(classPath, jsa);
        } catch (IOException e) {
            return unarchived(testClassPath, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unarchived(testClassPath, "interrupted");
        }
    }

    /** Children on the test's own class path, without an archive, and why on standard error. */
    private static Prepared unarchived(String testClassPath, String why) {
        System.err.println("test kit: children start without a class-data archive: " + why);
        return new Prepared(testClassPath, null);
    }

    /** Writes {@code fsindex} settings to {@code file} for a child to {@link #readSettings} them; returns the file. */
    static Path writeSettings(Properties fsindex, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file)) {
            fsindex.store(w, "fsindex settings for a child JVM");
        }
        return file;
    }

    /** In a child: the settings the test wrote to {@code file}. */
    static Properties readSettings(Path file) throws IOException {
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            settings.load(in);
        }
        return settings;
    }

    /** This JVM's java command. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The class path of the test running in this JVM (Surefire's, not its booter jar's). */
    static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** {@code classPath} with each directory replaced by a jar of it, written into {@code dir}. */
    private static String packed(String classPath, Path dir) throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (entry.isEmpty() || !Files.isDirectory(path)) {
                entries.add(entry);
                continue;
            }
            Path jar = dir.resolve("dir" + entries.size() + ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                 Stream<Path> files = Files.walk(path)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                    out.putNextEntry(new JarEntry(path.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            entries.add(jar.toString());
        }
        return String.join(File.pathSeparator, entries);
    }
}
