package io.fsindex.testkit;

import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanSession;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM that starts a scan, stops it (through {@link PausingWalker}) after it has listed a given directory,
 * announces that, and then waits for ever: the state a test kills it in, as a power cut or SIGKILL would find a scan
 * midway. Arguments: {@code <properties file> <root> <directory to pause after> <file to create when paused>}; the
 * file holds the scan's id.
 */
public final class PausedScanChild {
    private PausedScanChild() {
    }

    /** Entry point for the child JVM; see the class documentation for arguments. */
    public static void main(String[] args) throws Exception {
        Properties properties = ChildJava.readSettings(Path.of(args[0]));
        PausingWalker walker = new PausingWalker();
        PausingWalker.Pause pause = walker.pauseAfterListing(Path.of(args[2]));
        FsIndex index = FsIndex.fromProperties(properties);
        ScanSession session = index.startScan(Path.of(args[1]), ScanOptions.defaults().withWalker(walker));
        pause.awaitPaused();
        Path announced = Path.of(args[3]);
        Files.writeString(announced.resolveSibling(announced.getFileName() + ".tmp"), Long.toString(session.scanId()));
        Files.move(announced.resolveSibling(announced.getFileName() + ".tmp"), announced);
        Thread.sleep(TimeUnit.HOURS.toMillis(1)); // until the test kills this JVM
    }

    /** Starts the child with this JVM's java and class path, its output going to {@code log}. */
    public static Process start(Properties fsindex, Path workDir, Path root, Path pauseAfter, Path announce)
            throws java.io.IOException {
        Path props = workDir.resolve("paused-child.properties");
        ChildJava.writeSettings(fsindex, props);
        return new ProcessBuilder(ChildJava.command(fsindex, List.of(), PausedScanChild.class.getName(),
                List.of(props.toString(), root.toString(), pauseAfter.toString(), announce.toString())))
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("paused-child.log").toFile())
                .start();
    }
}
