package io.fsindex.core.watch;

import io.fsindex.api.ScanError;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanResult;
import io.fsindex.core.internal.Listeners;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch's own reports (what it had to fall back on, and why) on their way to the log and the listener, and the
 * listener itself, wrapped so that it is called by one thread at a time however many of the watch's scans run at
 * once. Reports are logged when made and handed to the listener by the watch's scan thread.
 */
final class WatchReports {
    /** Named after the watch, where the README says its warnings come from. */
    private static final Logger LOG = LoggerFactory.getLogger(TreeWatcher.class);

    private final ScanListener listener;
    private final ConcurrentLinkedQueue<ScanError> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong fallbacks = new AtomicLong();

    WatchReports(ScanListener listener) {
        // A scan reads its changes back for a listener that implements changed (Listeners.wantsChanges), so the
        // wrapper implements it only for one that does.
        this.listener = Listeners.wantsChanges(listener) ? new OneAtATimeWithChanges(listener)
                : new OneAtATime(listener);
    }


    /** The listener every scan of the watch gets: the application's, called by one thread at a time. */
    ScanListener listener() {
        return listener;
    }

    /** Something the watch fell back on (lost events, a directory it cannot watch, a missing root): counted. */
    void fallback(Path path, ScanError.Reason reason, String message) {
        fallbacks.incrementAndGet();
        problem(path, reason, message);
    }

    /** A problem that is not a fallback (a failed scan, to be retried). */
    void problem(Path path, ScanError.Reason reason, String message) {
        LOG.warn(message);
        queue.add(new ScanError(path, reason, message));
    }

    /** Hands the reports made so far to the listener; a listener that throws is logged and not asked again for it. */
    void deliver() {
        for (ScanError r = queue.poll(); r != null; r = queue.poll()) {
            try {
                listener.error(r);
            } catch (RuntimeException e) {
                LOG.warn("the scan listener failed on a watch report: {}", e.toString());
            }
        }
    }

    long fallbacks() {
        return fallbacks.get();
    }

    /**
     * Calls the application's listener under one lock, so that parallel scans never call it at the same time; passes
     * no changes on (see {@link OneAtATimeWithChanges}).
     */
    private static class OneAtATime implements ScanListener {
        final ScanListener delegate;

        OneAtATime(ScanListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public synchronized void started(long scanId, Path root) {
            delegate.started(scanId, root);
        }

        @Override
        public synchronized void progress(ScanProgress progress) {
            delegate.progress(progress);
        }

        @Override
        public synchronized void error(ScanError error) {
            delegate.error(error);
        }

        @Override
        public synchronized void finished(ScanResult result) {
            delegate.finished(result);
        }
    }

    /** {@link OneAtATime}, passing changes on too, for a listener that implements {@link ScanListener#changed}. */
    private static final class OneAtATimeWithChanges extends OneAtATime {
        OneAtATimeWithChanges(ScanListener delegate) {
            super(delegate);
        }

        @Override
        public synchronized void changed(io.fsindex.api.Change change) {
            delegate.changed(change);
        }
    }
}
