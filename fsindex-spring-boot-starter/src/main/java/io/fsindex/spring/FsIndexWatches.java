package io.fsindex.spring;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The watches the starter runs for {@code fsindex.watch.roots}, one per root, closed together with the context.
 */
public final class FsIndexWatches implements AutoCloseable {
    private final List<IndexWatch> watches;

    private FsIndexWatches(List<IndexWatch> watches) {
        this.watches = List.copyOf(watches);
    }

    /** Starts a watch of each root; if one fails to start, those already started are closed again. */
    static FsIndexWatches start(FsIndex index, FsIndexWatchProperties properties) {
        List<IndexWatch> started = new ArrayList<>();
        if (properties.getRoots().isEmpty()) {
            return new FsIndexWatches(started);
        }
        WatchOptions options = properties.toWatchOptions();
        try {
            for (Path root : properties.getRoots()) {
                started.add(index.watch(root, options));
            }
        } catch (RuntimeException e) {
            started.forEach(IndexWatch::close);
            throw e;
        }
        return new FsIndexWatches(started);
    }

    /** @return the running watches, in the order of {@code fsindex.watch.roots} */
    public List<IndexWatch> watches() {
        return watches;
    }

    /** Stops every watch. */
    @Override
    public void close() {
        watches.forEach(IndexWatch::close);
    }
}
