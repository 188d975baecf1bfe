package io.fsindex.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs every command of the tool once on a small index of its own, so that a JVM started with
 * {@code -XX:DumpLoadedClassList} lists the classes each of them loads. The build runs it, then writes those classes
 * into the class-data archive the {@code fsindex} launcher script starts the JVM with; it prints nothing and leaves
 * nothing.
 */
final class StartupTraining {
    private StartupTraining() {
    }

    public static void main(String[] args) throws IOException {
        Path work = Files.createTempDirectory("fsindex-training-");
        try {
            Path tree = Files.createDirectories(work.resolve("tree/sub"));
            Files.writeString(tree.resolve("a.txt"), "a");
            Files.writeString(tree.resolve("b.txt"), "a");
            Files.writeString(tree.getParent().resolve("c.txt"), "c");
            String db = "jdbc:sqlite:" + work.resolve("training.db");
            String root = work.resolve("tree").toString();
            PrintWriter nowhere = new PrintWriter(OutputStream.nullOutputStream());
            for (List<String> command : List.of(List.of("scan", "-q", "--hash", "full", "--db", db, root),
                    List.of("info", "--db", db), List.of("ls", "--db", db, root), List.of("find", "--db", db, "a"),
                    List.of("du", "--db", db, root), List.of("dupes", "--db", db),
                    List.of("changes", "--db", db), List.of("gc", "--db", db), List.of("--help"),
                    List.of("--version"))) {
                int exit = FsIndexCli.run(command.toArray(String[]::new), nowhere, nowhere);
                if (exit != 0) {
                    throw new IllegalStateException("fsindex " + String.join(" ", command) + " exited with " + exit);
                }
            }
        } finally {
            try (Stream<Path> all = Files.walk(work)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }
}
