package io.fsindex.core.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * What a watch asks of the machine it runs on: how many directories it may register, the type of the filesystem
 * that holds its root, and how long a directory created in the tree goes unregistered. Production asks the kernel
 * ({@link #SYSTEM}); fsindex's tests substitute each, through {@link WatchTestHooks}, to reach the fallbacks without
 * exhausting the machine's inotify watches or mounting NFS, and to make entries in a new directory before it is
 * registered, as a busy machine sometimes does.
 *
 * @param maxWatches        the most directories the watch registers before failing as the kernel does at its limit
 * @param fileStoreType     reads the type of the filesystem holding a path ({@code ext4}, {@code nfs4}, ...)
 * @param beforeRegistering runs on the event thread between a created directory's event and its registration
 */
record WatchEnvironment(int maxWatches, FileStoreType fileStoreType, Consumer<Path> beforeRegistering) {
    /** The machine as it is: the kernel's own limit, the JDK's file store type, registration at once. */
    static final WatchEnvironment SYSTEM = new WatchEnvironment(Integer.MAX_VALUE, p -> Files.getFileStore(p).type(),
            p -> { });

    /** The machine as it is, but for {@code maxWatches} and {@code fileStoreType}. */
    WatchEnvironment(int maxWatches, FileStoreType fileStoreType) {
        this(maxWatches, fileStoreType, SYSTEM.beforeRegistering);
    }

    /** Reads the type of the filesystem holding a path. */
    @FunctionalInterface
    interface FileStoreType {
        String of(Path path) throws IOException;
    }
}
