package io.fsindex.api;

import java.nio.file.Path;

/**
 * A running watch ({@code FsIndex.watch}): keeps the index of one tree current until closed. Closing it stops
 * listening and waits for the scan in progress, if any, to end; the index stays valid, and a later scan or watch
 * catches up with whatever changed meanwhile.
 */
public interface IndexWatch extends AutoCloseable {

    /**
     * The watched directory.
     *
     * @return its real path, as the index stores it
     */
    Path root();

    /**
     * What the watch is doing now.
     *
     * @return a snapshot of its state
     */
    WatchState state();

    /** Stops watching; waits for a scan in progress to end. Closing twice does nothing more. */
    @Override
    void close();
}
