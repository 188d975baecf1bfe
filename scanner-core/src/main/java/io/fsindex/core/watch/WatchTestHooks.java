package io.fsindex.core.watch;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;

/**
 * Not API: for fsindex's own tests, which must reach a watch's fallbacks without exhausting the machine's inotify
 * watches, flooding its event queue or mounting a network filesystem. Public only because the conformance tests
 * live in another module.
 */
public final class WatchTestHooks {
    private WatchTestHooks() {
    }

    /**
     * Starts a watch as {@link FsIndex#watch} does, but one that can register at most {@code maxWatches}
     * directories, failing beyond that as the kernel does when {@code fs.inotify.max_user_watches} is reached.
     *
     * @param index      the index to keep current
     * @param root       the directory to watch
     * @param options    how to watch
     * @param maxWatches the most directories it may register
     * @return the running watch
     */
    public static IndexWatch startWithWatchLimit(FsIndex index, Path root, WatchOptions options, int maxWatches) {
        return TreeWatcher.start(index, root, options,
                new WatchEnvironment(maxWatches, WatchEnvironment.SYSTEM.fileStoreType()), java.util.List.of());
    }

    /**
     * Starts a watch as {@link FsIndex#watch} does, but one that reads {@code fileStoreType} as the type of the
     * filesystem holding {@code root} (e.g. {@code nfs4}), so a test reaches what the watch does on such a filesystem.
     *
     * @param index         the index to keep current
     * @param root          the directory to watch
     * @param options       how to watch
     * @param fileStoreType the filesystem type the watch sees
     * @return the running watch
     */
    public static IndexWatch startOnFileStoreType(FsIndex index, Path root, WatchOptions options,
                                                  String fileStoreType) {
        return TreeWatcher.start(index, root, options, new WatchEnvironment(Integer.MAX_VALUE, p -> fileStoreType),
                java.util.List.of());
    }

    /**
     * Starts a watch as {@link FsIndex#watch} does, but one that runs {@code beforeRegistering} on its event thread
     * when a directory has been created in the tree, before it registers that directory, so a test can make entries
     * in it that give no event, as they do on a busy machine.
     *
     * @param index             the index to keep current
     * @param root              the directory to watch
     * @param options           how to watch
     * @param beforeRegistering gets each created directory before the watch registers it
     * @return the running watch
     */
    public static IndexWatch startDelayingRegistration(FsIndex index, Path root, WatchOptions options,
                                                       java.util.function.Consumer<Path> beforeRegistering) {
        return TreeWatcher.start(index, root, options, new WatchEnvironment(Integer.MAX_VALUE,
                WatchEnvironment.SYSTEM.fileStoreType(), beforeRegistering), java.util.List.of());
    }

    /**
     * Makes the watch handle an event-queue overflow for {@code dir}, as it handles one the JDK reports.
     *
     * @param watch a watch started by fsindex
     * @param dir   the directory whose events were lost
     */
    public static void overflow(IndexWatch watch, Path dir) {
        ((TreeWatcher) watch).overflowed(dir);
    }
}
