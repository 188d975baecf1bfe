package io.fsindex.core.scan;

import io.fsindex.api.MountChangedException;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanResult;
import io.fsindex.api.ScanSession;
import io.fsindex.api.ScopeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link ScanSession} backed by a future that completes when the background scan ends. */
public final class DefaultScanSession implements ScanSession {
    private final Scan scan;
    private final Path root;
    private final CompletableFuture<ScanResult> done = new CompletableFuture<>();

    public DefaultScanSession(Scan scan, Path root) {
        this.scan = scan;
        this.root = root;
    }

    @Override
    public long scanId() {
        return scan.scanId();
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public ScanProgress progress() {
        return scan.progress();
    }

    @Override
    public void cancel() {
        scan.cancel();
    }

    @Override
    public boolean isDone() {
        return done.isDone();
    }

    @Override
    public ScanResult await() throws InterruptedException {
        try {
            return done.get();
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    @Override
    public Optional<ScanResult> await(Duration timeout) throws InterruptedException {
        try {
            return Optional.of(done.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    private RuntimeException unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CancellationException c) {
            CancellationException copy = new CancellationException(c.getMessage());
            copy.initCause(c);
            return copy;
        }
        // The scan's own exception, copied so that its stack shows the caller too; refusals keep their type.
        if (cause instanceof ScopeException s) {
            return new ScopeException(s.getMessage(), s);
        }
        if (cause instanceof MountChangedException m) {
            return new MountChangedException(m.getMessage(), m);
        }
        if (cause instanceof ScanFailedException f) {
            return new ScanFailedException(f.getMessage(), f);
        }
        return new ScanFailedException("scan " + scanId() + " of " + root + " failed: " + cause.getMessage(), cause);
    }

    @Override
    public String toString() {
        return "scan " + scanId() + " of " + root;
    }

    /** Ends the session with the scan's result: {@link #await} returns it. */
    void complete(ScanResult result) {
        done.complete(result);
    }

    /** Ends the session with the scan's failure: {@link #await} throws it. */
    void fail(Throwable failure) {
        done.completeExceptionally(failure);
    }
}
