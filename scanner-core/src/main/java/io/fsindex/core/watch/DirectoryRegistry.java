package io.fsindex.core.watch;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Registers directories with the JDK's {@link WatchService} (on Linux one inotify watch each) and knows where each
 * registration's directory is now. The JDK names a key by the path it was first registered with and hands back the
 * same key when the directory is registered again under a new path (inotify watches the inode, which a rename keeps),
 * so the current path of each key is kept here and updated whenever a moved directory is registered again.
 */
final class DirectoryRegistry implements AutoCloseable {
    /** What the kernel says when {@code fs.inotify.max_user_watches} is used up (the JDK's message for ENOSPC). */
    static final String LIMIT_MESSAGE = "User limit of inotify watches reached";

    /** A directory that could not be registered, and why. */
    record Failure(Path directory, IOException cause) {
        boolean isWatchLimit() {
            return String.valueOf(cause.getMessage()).contains("inotify watches");
        }
    }

    private final WatchService service;
    private final Map<WatchKey, Path> paths = new ConcurrentHashMap<>();
    /** The same by path, ordered, so a subtree's registrations are one range ({@link #forgetTree}). */
    private final java.util.concurrent.ConcurrentSkipListMap<String, WatchKey> byPath =
            new java.util.concurrent.ConcurrentSkipListMap<>();
    private final int maxWatches;

    DirectoryRegistry(FileSystem fs, int maxWatches) throws IOException {
        this.service = fs.newWatchService();
        this.maxWatches = maxWatches;
    }

    /** Registers one directory (again, after a move); throws as the JDK does, or at the test's lowered limit. */
    WatchKey register(Path dir) throws IOException {
        if (paths.size() >= maxWatches) {
            throw new IOException(LIMIT_MESSAGE + " (lowered to " + maxWatches + ")");
        }
        WatchKey key = dir.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
        Path before = paths.put(key, dir);
        if (before != null && !before.equals(dir)) {
            byPath.remove(before.toString(), key);
        }
        byPath.put(dir.toString(), key);
        return key;
    }

    /** Decides which directories a walk of the tree leaves out, from the file keys it read. */
    interface LeftOut {
        /**
         * @param dir           the directory
         * @param fileKey       its file key ({@code BasicFileAttributes.fileKey()}), or null
         * @param parentFileKey its parent's, or null
         * @return true to skip it and its subtree
         */
        boolean test(Path dir, Object fileKey, Object parentFileKey);
    }

    /**
     * Registers {@code top} and every directory below it (links are not followed), again where registered already,
     * but for those {@code leftOut} names, which are skipped with their subtrees. A directory that cannot be
     * registered is skipped with its subtree; those are returned, at most one of them below another.
     */
    List<Failure> registerTree(Path top, LeftOut leftOut) {
        List<Failure> failures = new ArrayList<>();
        java.util.Deque<Object> keys = new java.util.ArrayDeque<>();   // the file keys of the directories walked into
        try {
            Files.walkFileTree(top, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    Object parentKey = keys.isEmpty() ? parentKey(dir) : keys.peek() == NO_KEY ? null : keys.peek();
                    if (leftOut.test(dir, attrs.fileKey(), parentKey)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    try {
                        register(dir);
                        keys.push(attrs.fileKey() == null ? NO_KEY : attrs.fileKey());
                        return FileVisitResult.CONTINUE;
                    } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException gone) {
                        // Gone since it was seen: its parent's scan finds it gone; nothing to watch.
                        return FileVisitResult.SKIP_SUBTREE;
                    } catch (IOException e) {
                        failures.add(new Failure(dir, e));
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                    keys.pop();
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    // Gone or unreadable: a scan lists it (or not) and reports what it cannot read.
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (java.nio.file.NoSuchFileException gone) {
            // Gone already: nothing to watch.
        } catch (IOException e) {
            failures.add(new Failure(top, e));
        }
        return failures;
    }

    /** Stands in the stack of file keys for a directory the platform gives none for. */
    private static final Object NO_KEY = new Object();

    private static Object parentKey(Path dir) {
        return dir.getParent() == null ? null : WatchedScope.fileKey(dir.getParent());
    }

    /** The directory a key watches now, or null if the key is no longer known. */
    Path pathOf(WatchKey key) {
        return paths.get(key);
    }

    /** Forgets a key the JDK has cancelled (its directory was deleted or became unreadable). */
    void forget(WatchKey key) {
        Path p = paths.remove(key);
        if (p != null) {
            byPath.remove(p.toString(), key);
        }
        key.cancel();
    }

    /**
     * Cancels the registrations of {@code top} and everything below it: it left its place (deleted, or moved, maybe
     * out of the tree, where its events would name paths that are no longer its). A directory moved within the tree
     * is registered again at its new place.
     */
    void forgetTree(Path top) {
        WatchKey own = byPath.get(top.toString());
        if (own != null) {
            forget(own);
        }
        List.copyOf(below(top).values()).forEach(this::forget);
    }

    /** The registrations strictly below {@code top}: paths starting with its path and a separator. */
    private Map<String, WatchKey> below(Path top) {
        char separator = top.getFileSystem().getSeparator().charAt(0);
        String path = top.toString();
        String stem = path.charAt(path.length() - 1) == separator ? path.substring(0, path.length() - 1) : path;
        return byPath.subMap(stem + separator, stem + (char) (separator + 1));
    }

    /** Cancels the registrations of the directories {@code leftOut} names (the rules now exclude them). */
    void forgetIf(java.util.function.Predicate<Path> leftOut) {
        for (Map.Entry<WatchKey, Path> e : List.copyOf(paths.entrySet())) {
            if (leftOut.test(e.getValue())) {
                forget(e.getKey());
            }
        }
    }

    /** Cancels every registration except {@code keep}'s. */
    void forgetAllBut(WatchKey keep) {
        for (WatchKey key : List.copyOf(paths.keySet())) {
            if (key != keep) {
                forget(key);
            }
        }
    }

    /** How many registered directories are {@code top} or below it. */
    long directoriesUnder(Path top) {
        return below(top).size() + (byPath.containsKey(top.toString()) ? 1 : 0);
    }

    int size() {
        return paths.size();
    }

    /** The next key with events, waiting up to {@code millis}; null if none came. */
    WatchKey poll(long millis) throws InterruptedException {
        return service.poll(millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            // Closing releases the inotify descriptor; nothing is left to do if that fails.
        }
        paths.clear();
        byPath.clear();
    }
}
