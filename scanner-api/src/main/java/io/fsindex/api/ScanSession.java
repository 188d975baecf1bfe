package io.fsindex.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A scan running in the background. The scan already has its id when the session is returned, so any scan started
 * after this call returns is newer than this one.
 */
public interface ScanSession {

    /** {@return the scan's id} */
    long scanId();

    /** {@return the path being scanned} */
    Path root();

    /** {@return a snapshot of the progress so far} */
    ScanProgress progress();

    /**
     * Asks the scan to stop soon. A cancelled scan deletes nothing it merely did not see, and leaves existing rows
     * as they were; only the contents of a directory it already found replaced by a file are gone.
     */
    void cancel();

    /** {@return true once the scan has completed, failed or been cancelled} */
    boolean isDone();

    /**
     * Waits for the scan to end.
     *
     * @return what the scan did
     * @throws ScanFailedException                      if the scan failed
     * @throws java.util.concurrent.CancellationException if it was cancelled
     * @throws InterruptedException                       if the waiting thread is interrupted (the scan goes on)
     */
    ScanResult await() throws InterruptedException;

    /**
     * Waits at most {@code timeout}. Throws as {@link #await()}.
     *
     * @param timeout how long to wait at most
     * @return what the scan did, or empty if it is still running then
     * @throws InterruptedException if the waiting thread is interrupted (the scan goes on)
     */
    Optional<ScanResult> await(Duration timeout) throws InterruptedException;
}
