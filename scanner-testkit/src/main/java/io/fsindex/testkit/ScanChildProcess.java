package io.fsindex.testkit;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScopeException;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM that opens an index from a properties file and scans one path several times, for the tests that
 * need real concurrent processes on one database.
 *
 * <p>Arguments: {@code <properties file> <barrier directory> <child name> <path to scan> <times> [<exclude
 * pattern>...]}. With exclude patterns, every scan gives them as its rules ({@link ScanOptions#withScope}), so the
 * first stores them where none are stored. The child announces itself with {@code <child name>.ready} in the barrier
 * directory and waits for a file {@code go} there before it opens the index, so all children create or migrate the
 * schema and scan at the same moment. It exits with 0 if everything succeeded, {@value #REFUSED} (printing
 * {@code refused <message>}) if a scan was refused with a {@link ScopeException}, and 1 (printing the exception) on
 * any other exception.
 */
public final class ScanChildProcess {
    /** The file whose appearance releases every waiting child. */
    static final String GO = "go";
    /** The exit code of a child whose scan was refused with a {@link ScopeException}. */
    static final int REFUSED = 2;

    private ScanChildProcess() {
    }

    /** Entry point for the child JVM; see the class documentation for arguments. */
    public static void main(String[] args) {
        try {
            Properties properties = ChildJava.readSettings(Path.of(args[0]));
            Path barrier = Path.of(args[1]);
            String name = args[2];
            Path root = Path.of(args[3]);
            int times = Integer.parseInt(args[4]);
            List<String> excludes = new ArrayList<>(Arrays.asList(args).subList(5, args.length));
            ScanOptions options = excludes.isEmpty() ? ScanOptions.defaults()
                    : ScanOptions.defaults().withScope(ScanScope.defaults().withExcludes(excludes));

            // Load fsindex, jOOQ and the driver before the barrier, so the children's work overlaps rather than their
            // class loading.
            Class.forName(FsIndex.class.getName());
            Files.createFile(barrier.resolve(name + ".ready"));
            awaitGo(barrier);

            try (FsIndex index = FsIndex.fromProperties(properties)) {
                for (int i = 0; i < times; i++) {
                    ScanResult r = index.scan(root, options);
                    System.out.println(name + " scan " + r.scanId() + " of " + root + ": +" + r.added() + " ~"
                            + r.modified() + " -" + r.deleted() + " errors " + r.errors());
                }
            }
            System.exit(0);
        } catch (ScopeException e) {
            System.out.println("refused " + e.getMessage());
            System.exit(REFUSED);
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void awaitGo(Path barrier) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(barrier.resolve(GO))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the parent test never released the barrier " + barrier.resolve(GO));
            }
            Thread.sleep(5); // polling a file is the only signal two JVMs share here
        }
    }
}
