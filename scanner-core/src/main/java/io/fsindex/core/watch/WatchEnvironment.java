package io.fsindex.core.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a watch asks of the machine it runs on: how many directories it may register and the type of the filesystem
 * that holds its root. Production asks the kernel ({@link #SYSTEM}); fsindex's tests substitute either, through
 * {@link WatchTestHooks}, to reach the fallbacks without exhausting the machine's inotify watches or mounting NFS.
 *
 * @param maxWatches    the most directories the watch registers before failing as the kernel does at its limit
 * @param fileStoreType reads the type of the filesystem holding a path ({@code ext4}, {@code nfs4}, ...)
 */
record WatchEnvironment(int maxWatches, FileStoreType fileStoreType) {
    /** The machine as it is: the kernel's own limit, and the JDK's file store type. */
    static final WatchEnvironment SYSTEM = new WatchEnvironment(Integer.MAX_VALUE, p -> Files.getFileStore(p).type());

    /** Reads the type of the filesystem holding a path. */
    @FunctionalInterface
    interface FileStoreType {
        String of(Path path) throws IOException;
    }
}
