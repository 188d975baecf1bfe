package io.fsindex.core.scan;

import io.fsindex.api.Walker;
import java.io.InterruptedIOException;

/**
 * For a {@link Walker} that stops a scan at an exact point by blocking inside {@link Walker#list} (as the testkit's
 * pausing walkers do). A scan reads listings on a thread of its own, ahead of applying them, so blocking there stops
 * only the reading: the scan goes on applying what it had read. Call {@link #awaitEarlierListingsApplied()} before
 * blocking, and the index is then exactly as the scan left it after applying every listing it read before this one,
 * and stays so until the walker returns.
 */
public final class ListingPause {
    private ListingPause() {
    }

    /**
     * Waits until the scan whose walker thread calls this has applied (or, for a directory it does not own, dropped)
     * every listing its walker read before; returns at once when called on any other thread.
     *
     * @throws InterruptedIOException if the scan stopped or the thread was interrupted while waiting
     */
    public static void awaitEarlierListingsApplied() throws InterruptedIOException {
        Walk.awaitEarlierListingsApplied();
    }
}
