package io.fsindex.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A scan running in the background. The scan already has its id when the session is returned, so any scan started
 * after this call returns is newer than this one.
 */
public interface ScanSession {

    /** The scan's id. */
    long scanId();

    /** The path being scanned. */
    Path root();

    /** A snapshot of the progress so far. */
    ScanProgress progress();

    /**
     * Asks the scan to stop soon. A cancelled scan deletes nothing it merely did not see, and leaves existing rows
     * as they were; only the contents of a directory it already found replaced by a file are gone.
     */
    void cancel();

    /** Returns true once the scan has completed, failed or been cancelled. */
    boolean isDone();

    /**
     * Waits for the scan to end.
     *
     * @throws ScanFailedException                      if the scan failed
     * @throws java.util.concurrent.CancellationException if it was cancelled
     */
    ScanResult await() throws InterruptedException;

    /** Waits at most {@code timeout}; empty if the scan is still running then. Throws as {@link #await()}. */
    Optional<ScanResult> await(Duration timeout) throws InterruptedException;
}
