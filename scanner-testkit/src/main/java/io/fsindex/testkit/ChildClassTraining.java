package io.fsindex.testkit;

import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The run whose loaded classes {@link ChildJava} archives for the test kit's child JVMs: it opens an index from a
 * properties file and scans a small tree twice, the second time after a change, as the children do.
 *
 * <p>Arguments: {@code <properties file> <directory for the tree>}.
 */
public final class ChildClassTraining {
    private ChildClassTraining() {
    }

    /** Entry point; see the class documentation for arguments. */
    public static void main(String[] args) throws Exception {
        Properties properties = ChildJava.readSettings(Path.of(args[0]));
        Path root = Files.createDirectories(Path.of(args[1]).resolve("d"));
        Files.writeString(root.resolve("a.txt"), "a");
        Files.writeString(root.getParent().resolve("b.txt"), "b");
        try (FsIndex index = FsIndex.fromProperties(properties)) {
            index.scan(root.getParent());
            Files.move(root.resolve("a.txt"), root.getParent().resolve("c.txt"));
            Files.delete(root.getParent().resolve("b.txt"));
            index.scan(root.getParent());
        }
    }
}
