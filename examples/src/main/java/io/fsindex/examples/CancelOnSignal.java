package io.fsindex.examples;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanSession;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * While open, a shutdown hook that ends the CLI's scan cleanly when the process is told to stop (SIGINT, SIGTERM):
 * it cancels the scan and waits, at most {@link #CANCEL_WAIT}, for it to record {@code CANCELLED}; the JVM then exits
 * as after any such signal (130 for SIGINT, 143 for SIGTERM). Without it the scan's row would stay {@code RUNNING}
 * until its lease ran out. The hook is installed before the scan starts, so a signal that arrives while the scan is
 * being started still finds it. For {@code watch}, the hook closes the watch instead ({@link #closeOnSignal}), which
 * cancels its scan in progress the same way.
 */
final class CancelOnSignal implements AutoCloseable {
    /** How long a signalled CLI waits for its scan to record that it was cancelled before exiting anyway. */
    static final Duration CANCEL_WAIT = Duration.ofSeconds(20);

    private final CompletableFuture<ScanSession> session = new CompletableFuture<>();
    private volatile IndexWatch watch;
    private final PrintWriter err;
    private final Thread hook;

    CancelOnSignal(PrintWriter err) {
        this.err = err;
        this.hook = new Thread(this::stop, "fsindex-cancel-on-signal");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The scan to cancel on a signal. */
    ScanSession watch(ScanSession scan) {
        session.complete(scan);
        return scan;
    }

    /** The watch to close on a signal. */
    IndexWatch closeOnSignal(IndexWatch running) {
        watch = running;
        session.complete(null);
        return running;
    }

    private void stop() {
        IndexWatch w = watch;
        if (w != null) {
            err.println("fsindex: stopping: closing the watch of " + CliText.escaped(w.root()));
            err.flush();
            w.close();
            err.println("fsindex: stopped watching " + CliText.escaped(w.root()));
            err.flush();
            return;
        }
        ScanSession scan;
        try {
            scan = session.get(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            return;     // no scan was started
        }
        if (scan == null || scan.isDone()) {
            return;
        }
        err.println("fsindex: stopping: cancelling " + CliText.escaped(scan));
        err.flush();
        scan.cancel();
        try {
            scan.await(CANCEL_WAIT);
        } catch (RuntimeException cancelledOrFailed) {
            // the expected end: the scan recorded its outcome
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        err.println("fsindex: " + CliText.escaped(scan) + (scan.isDone() ? " cancelled" : " did not stop within "
                + CANCEL_WAIT.toSeconds() + " s; it will show as ABANDONED once its lease has run out"));
        err.flush();
    }

    /** Removes the hook, unless the JVM is already stopping (the hook then owns the scan's end). */
    @Override
    public void close() {
        session.complete(null);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or has run
        }
    }
}
