package io.fsindex.examples;

import static io.fsindex.examples.CliText.escaped;

import io.fsindex.api.Change;
import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanListener;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fsindex watch}: keeps the index of a tree current and prints each change it commits, until stopped. */
@Command(name = "watch", description = "Keep the index of PATH current until stopped (Ctrl-C or SIGTERM), printing"
        + " each committed change as `changes` does: SEQ TYPE KIND PATH (MOVED: PATH <- PREVIOUS).")
final class WatchCommand extends FsIndexCli.IndexCommand {
    @Parameters(paramLabel = "PATH", description = "directory to watch")
    Path path;
    @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "200ms",
            converter = FsIndexCli.DurationConverter.class,
            description = "how long a directory must be quiet before it is scanned (default 200ms)")
    Duration settle;
    @Option(names = "--rescan-every", paramLabel = "DURATION", defaultValue = "0",
            converter = FsIndexCli.DurationConverter.class,
            description = "also scan the whole tree this often, as a safety net, e.g. 6h (default 0: never)")
    Duration rescanEvery;
    @Option(names = "--parallel-scans", paramLabel = "N", defaultValue = "" + WatchOptions.DEFAULT_PARALLEL_SCANS,
            description = "scan up to N changed directories at once, each on its own database connection (default "
                    + WatchOptions.DEFAULT_PARALLEL_SCANS + "; 1: one at a time)")
    int parallelScans;

    @Override
    public Integer call() throws InterruptedException {
        if (parallelScans < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--parallel-scans must be at least 1");
        }
        PrintWriter out = out();
        PrintWriter err = err();
        ScanListener printer = new ScanListener() {
            @Override
            public void changed(Change change) {
                FsIndexCli.printChange(change, out);
                out.flush();
            }

            @Override
            public void error(ScanError error) {
                err.println("fsindex: " + escaped(error));
                err.flush();
            }
        };
        try (FsIndex index = open(); CancelOnSignal signal = new CancelOnSignal(err)) {
            WatchOptions options = WatchOptions.defaults().withSettle(settle).withRescanEvery(rescanEvery)
                    .withParallelScans(parallelScans).withListener(printer);
            IndexWatch watch = signal.closeOnSignal(index.watch(path, options));
            err.printf("fsindex: watching %s (%d directories, up to %d scans at once); Ctrl-C to stop%n",
                    escaped(watch.root()), watch.state().watchedDirectories(), options.parallelScans());
            err.flush();
            // Runs until a signal: the JVM's shutdown hook closes the watch, then the process exits.
            Thread.currentThread().join();
            return 0;
        }
    }
}
