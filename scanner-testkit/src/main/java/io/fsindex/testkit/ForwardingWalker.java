package io.fsindex.testkit;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.Walker;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link Walker} that reads through another one; extend it and override only what a test needs to change,
 * usually {@link #list}.
 */
public abstract class ForwardingWalker implements Walker {
    private final Walker delegate;

    /** Forwards to the real filesystem ({@link NioWalker}). */
    protected ForwardingWalker() {
        this(new NioWalker());
    }

    /** Forwards to {@code delegate}. */
    protected ForwardingWalker(Walker delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public FileStat stat(Path path) throws IOException {
        return delegate.stat(path);
    }

    @Override
    public FileStat statFollowingLinks(Path path) throws IOException {
        return delegate.statFollowingLinks(path);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        return delegate.list(directory);
    }
}
