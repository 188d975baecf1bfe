package io.fsindex.testkit;

import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Runs one scan and prints what it did as machine-readable lines, so a test can scan with fewer privileges than it
 * has itself (root ignores permission bits; the permission tests start this in a JVM without
 * {@code CAP_DAC_OVERRIDE}). Usage:
 * <pre>ScanInChildProcess &lt;fsindex-properties-file&gt; &lt;root&gt; [--expect-denied &lt;path&gt;]...</pre>
 * Each {@code --expect-denied} path is probed first: if reading it is not refused (lstat, or listing for a
 * directory), the environment cannot test what the caller wants and nothing is scanned. Output lines:
 * <ul>
 *   <li>{@code environment <why>} (exit 3): a path that should be denied is readable;</li>
 *   <li>{@code error <REASON> <path>} for each {@link ScanError}, then
 *       {@code result added=N updated=N unchanged=N deleted=N skipped=N} (exit 0);</li>
 *   <li>{@code failed <message>} (exit 2) if the scan threw {@link ScanFailedException}.</li>
 * </ul>
 */
public final class ScanInChildProcess {
    static final int FAILED = 2;
    static final int ENVIRONMENT = 3;

    private ScanInChildProcess() {
    }

    /** Entry point for the child JVM; see the class documentation for arguments and output. */
    public static void main(String[] args) throws IOException {
        Properties properties = ChildJava.readSettings(Path.of(args[0]));
        List<String> out = new ArrayList<>();
        int exit = run(properties, args, out);
        out.forEach(System.out::println);
        System.out.flush();
        System.exit(exit);
    }

    /** Does what {@link #main} does, in this JVM, adding the output lines to {@code out}; returns the exit code. */
    static int run(Properties properties, String[] args, List<String> out) {
        Path root = Path.of(args[1]);
        for (int i = 2; i < args.length; i += 2) {
            if (!args[i].equals("--expect-denied")) {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
            String readable = readableDespitePermissions(Path.of(args[i + 1]));
            if (readable != null) {
                out.add("environment " + readable);
                return ENVIRONMENT;
            }
        }
        try (FsIndex index = FsIndex.fromProperties(properties)) {
            ScanResult r = index.scan(root);
            for (ScanError e : r.errors()) {
                out.add("error " + e.reason() + " " + e.path());
            }
            out.add("result added=" + r.added() + " updated=" + r.modified() + " unchanged=" + r.unchanged()
                    + " deleted=" + r.deleted() + " skipped=" + r.skipped());
            return 0;
        } catch (ScanFailedException e) {
            out.add("failed " + String.valueOf(e.getMessage()).replace('\n', ' '));
            return FAILED;
        }
    }

    /** Null if reading {@code path} is refused as the caller expects, else why it is not. */
    private static String readableDespitePermissions(Path path) {
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory()) {
                return path + " can be read although its permissions should refuse it (running with"
                        + " CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH?)";
            }
            try (DirectoryStream<Path> listing = Files.newDirectoryStream(path)) {
                listing.iterator().hasNext();
            }
            return "directory " + path + " can be listed although its permissions should refuse it (running with"
                    + " CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH?)";
        } catch (AccessDeniedException denied) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
