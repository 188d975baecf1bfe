package io.fsindex.spring;

import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.internal.Durations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The trees the application keeps its index of current while it runs ({@code fsindex.watch.*}): each root is
 * watched from the context's start (after an initial scan, see {@link io.fsindex.core.FsIndex#watch}) until it
 * closes. Durations are read as the other {@code fsindex.*} durations are.
 */
public class FsIndexWatchProperties {
    /** Directories to watch; none by default. */
    private List<Path> roots = new ArrayList<>();
    /** How long changes to a directory settle before it is scanned (default 200ms). */
    private String settle;
    /** How often the whole tree is scanned again as a safety net (default: never). */
    private String rescanEvery;

    /** The watch options these settings describe, or a message naming the key of a value that does not parse. */
    WatchOptions toWatchOptions() {
        WatchOptions options = WatchOptions.defaults();
        if (settle != null) {
            options = options.withSettle(duration("fsindex.watch.settle", settle));
        }
        if (rescanEvery != null) {
            options = options.withRescanEvery(duration("fsindex.watch.rescanEvery", rescanEvery));
        }
        return options;
    }

    private static java.time.Duration duration(String key, String value) {
        try {
            return Durations.parse(value);
        } catch (FsIndexConfigurationException e) {
            throw new FsIndexConfigurationException(key + ": " + e.getMessage(), e);
        }
    }

    /** @return the roots to watch */
    public List<Path> getRoots() {
        return roots;
    }

    /** @param roots the directories to watch */
    public void setRoots(List<Path> roots) {
        this.roots = roots;
    }

    /** @return the settle window, as written */
    public String getSettle() {
        return settle;
    }

    /** @param settle a duration such as 200ms or 2s */
    public void setSettle(String settle) {
        this.settle = settle;
    }

    /** @return the safety rescan interval, as written */
    public String getRescanEvery() {
        return rescanEvery;
    }

    /** @param rescanEvery a duration such as 1h */
    public void setRescanEvery(String rescanEvery) {
        this.rescanEvery = rescanEvery;
    }
}
