package io.fsindex.api;

/**
 * Receives progress events of one scan. Events arrive on the scan's own thread, after the change they describe has
 * been committed; keep handlers quick. Every method has an empty default, so implement only what you need.
 */
public interface ScanListener {

    /** A listener that ignores every event. */
    ScanListener NONE = new ScanListener() {
    };

    /**
     * The scan got its id and is about to read its root.
     *
     * @param scanId the scan's id
     * @param root   the path it scans
     */
    default void started(long scanId, java.nio.file.Path root) {
    }

    /**
     * One more directory was listed and its entries committed.
     *
     * @param progress the counts so far
     */
    default void progress(ScanProgress progress) {
    }

    /**
     * An entry changed; called after the transaction holding the change has committed, in the order of the changes'
     * {@link Change#seq}. Unchanged entries get no call. Changes this scan makes to many entries at once (a whole
     * new tree) arrive one by one, so keep this quick.
     *
     * @param change the committed change
     */
    default void changed(Change change) {
    }

    /**
     * Something could not be read; the scan goes on.
     *
     * @param error what could not be read, and why
     */
    default void error(ScanError error) {
    }

    /**
     * The scan completed; not called for a scan that failed or was cancelled.
     *
     * @param result what the scan did
     */
    default void finished(ScanResult result) {
    }
}
