package io.fsindex.benchmarks;

import io.fsindex.api.FileEntry;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@link Startup} times as "a fresh JVM answering a lookup": opens an index with {@code build()}, looks one path
 * up and prints {@code FOUND|MISSING build-ms lookup-ms}, as a small application would on its first call.
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fsindex.benchmarks.StartupLookup JDBC-URL PATH
 * </pre>
 */
public final class StartupLookup {
    private StartupLookup() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        try (FsIndex index = FsIndex.builder().jdbcUrl(args[0]).build()) {
            long built = System.nanoTime();
            Optional<FileEntry> entry = index.lookup(Path.of(args[1]));
            long answered = System.nanoTime();
            System.out.printf("%s %.1f %.1f%n", entry.isPresent() ? "FOUND" : "MISSING", (built - start) / 1e6,
                    (answered - built) / 1e6);
        }
    }
}
