package io.fsindex.examples;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;

/**
 * Runs the same scan against each database given, to show that only the URL changes between engines:
 * <pre>
 * java -cp examples/target/fsindex.jar io.fsindex.examples.SameScanEverywhere PATH \
 *     jdbc:sqlite:a.db 'jdbc:postgresql://localhost/files?user=u&amp;password=p'
 * </pre>
 */
public final class SameScanEverywhere {
    private SameScanEverywhere() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: SameScanEverywhere PATH JDBC_URL...");
            System.exit(2);
        }
        Path path = Path.of(args[0]);
        for (int i = 1; i < args.length; i++) {
            try (FsIndex index = FsIndex.builder().jdbcUrl(args[i]).build()) {
                ScanResult r = index.scan(path);
                System.out.printf("%-10s scan %d: %d added, %d updated, %d unchanged, %d deleted in %d ms%n",
                        index.databaseName(), r.scanId(), r.added(), r.modified(), r.unchanged(), r.deleted(),
                        r.duration().toMillis());
            }
        }
    }
}
