package io.fsindex.core.scan;

import io.fsindex.core.content.ContentIndexer;
import io.fsindex.core.content.ContentStore;
import io.fsindex.api.FileSink;
import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.FileStat;
import io.fsindex.api.ScanError;
import io.fsindex.api.ScanFailedException;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanProgress;
import io.fsindex.api.ScanResult;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;

/** Walks one scan's tree top-down, feeding each listing to a {@link FileSink}, and reports what it did. */
public final class Scan {
    private final long scanId;
    private final Path requested;
    /** Set on the scan's own thread before it reads anything ({@link #walkWith}). */
    private Walker walker;
    private final ScanOptions options;
    private final ScanListener listener;
    private final AtomicReference<ScanProgress> progress = new AtomicReference<>(
            new ScanProgress(0, 0, 0, 0, 0, 0, null));
    private volatile boolean cancelled;
    /** Hashes files' content after their directory's listing is applied; null when the scan reads no content. */
    private ContentIndexer content;
    /** A directory scan ({@link #listRootOnly}): lists the root, then walks only the subdirectories its sink claimed. */
    private boolean rootOnly;

    private final List<ScanError> errors = new ArrayList<>();
    private long directories, added, modified, moved, unchanged, skipped;
    /** The identities of the scan root and every directory above it, the first links a loop can lead back to. */
    private Ancestors rootAndTrunk;

    /** A scan that lists and applies a huge directory in parts of {@code partEntries} entries. */
    public Scan(long scanId, Path requested, ScanOptions options, int partEntries) {
        this.partEntries = Math.max(1, partEntries);
        this.scanId = scanId;
        this.requested = requested;
        this.options = options;
        this.listener = options.listener();
    }

    /**
     * Gives the scan the walker it reads the tree with (the one that applies the root's rules); call on the scan's
     * own thread before {@link #hashContent} and {@link #run}.
     */
    public void walkWith(Walker walker) {
        this.walker = walker;
    }

    /** Hashes content as the options ask, storing it through {@code store}; call before {@link #run}. */
    public void hashContent(ContentStore store) {
        if (options.contentHashing() != io.fsindex.api.ContentHashing.OFF) {
            content = new ContentIndexer(store, options.contentHashing(), path -> options.followSymlinks()
                    ? walker.statFollowingLinks(path) : walker.stat(path), this::report);
        }
    }

    /**
     * Called once a directory's listing is committed: hashes its files outside any write transaction, counts what
     * the listing did and reports the progress.
     */
    void listingApplied(Directory dir, FileSink.Applied a) {
        if (content != null) {
            checkNotCancelled();
            content.directoryApplied(dir.id(), dir.path());
        }
        directories++;
        added += a.added();
        modified += a.modified();
        moved += a.moved();
        unchanged += a.unchanged();
        skipped += a.skipped();
        ScanProgress now = new ScanProgress(directories, added + modified + moved + unchanged, added, modified,
                skipped, errors.size(), dir.path());
        progress.set(now);
        listener.progress(now);
    }

    /**
     * A group of listings is applied in one transaction once it holds this many directories... Each transaction and
     * each statement has a cost of its own on the server (PostgreSQL sets up a bulk load's tuple slots and plans the
     * insert trigger's queries once per statement), so small directories are applied a few hundred at a time; a
     * group's memory is a few MiB at most.
     */
    public static final int GROUP_DIRECTORIES = 256;
    /** ...or this many entries, whichever comes first (a larger directory makes a group of its own). */
    static final int GROUP_ENTRIES = 16_384;

    /** How many entries of a huge directory this scan lists and applies at a time ({@link #PART_ENTRIES}). */
    public int partEntries() {
        return partEntries;
    }

    public long scanId() {
        return scanId;
    }

    public ScanOptions options() {
        return options;
    }

    public Walker walker() {
        return walker;
    }

    public ScanListener listener() {
        return listener;
    }

    ScanProgress progress() {
        return progress.get();
    }

    void cancel() {
        cancelled = true;
    }

    public long errorCount() {
        return errors.size();
    }

    /**
     * Runs the scan to the end. On any failure or cancellation the sink is finished without sweeping, so nothing is
     * deleted by a scan that did not see everything.
     */
    public ScanResult run(FileSink sink) {
        try {
            return walkAndSweep(sink);
        } catch (RuntimeException | Error e) {
            try {
                sink.finish(false);
            } catch (RuntimeException cleanup) {
                // The failure that stopped the scan is what the caller must see; the cleanup's comes along.
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private ScanResult walkAndSweep(FileSink sink) {
        long start = System.nanoTime();
        Path abs = requested.toAbsolutePath().normalize();
        Path root;
        try {
            root = abs.toRealPath();
        } catch (NoSuchFileException e) {
            if (!options.removeMissingRoot()) {
                throw new ScanFailedException("scan root does not exist: " + abs + "; nothing was deleted", e);
            }
            return removeMissingRoot(sink, abs, start);
        } catch (IOException e) {
            throw new ScanFailedException("scan root cannot be read: " + abs + " (" + e + "); nothing was deleted",
                    e);
        }
        listener.started(scanId, root);
        FileSink.Applied top = begin(sink, root);
        if (!top.subdirectories().isEmpty()) {
            Walk walk = new Walk(this, sink, top.subdirectories().get(0), rootAndTrunk, true, rootOnly);
            walk.run();
            if (rootOnly) {
                walkNewSubdirectories(sink, walk.claimedNotListed());
            }
        }
        long deleted = sink.finish(true);
        ScanResult result = new ScanResult(scanId, root, added, modified, moved, unchanged, deleted, skipped, errors,
                Duration.ofNanos(System.nanoTime() - start));
        listener.finished(result);
        return result;
    }

    /**
     * Makes this a directory scan: the walker thread lists the root only, and the scan then walks just the
     * subdirectories the sink claimed from the root's listing (a sink in directory mode claims only new ones, see
     * {@code SqlFileSink#descendOnlyIntoNew}), each completely. Call before {@link #run}.
     */
    public void listRootOnly() {
        rootOnly = true;
    }

    public boolean isRootOnly() {
        return rootOnly;
    }

    /**
     * The rest of a directory scan: each subdirectory its root's listing claimed (new, moved here or now a directory)
     * is walked completely, one after the other in name order, with the same protocol as any walk.
     */
    private void walkNewSubdirectories(FileSink sink, List<Directory> claimed) {
        claimed.sort(java.util.Comparator.comparing(Directory::name));
        for (Directory sub : claimed) {
            checkNotCancelled();
            Object key;
            try {
                key = walker.stat(sub.path()).fileKey();
            } catch (IOException e) {
                key = null;                      // gone or unreadable: its walk says so
            }
            new Walk(this, sink, sub, new Ancestors(key, rootAndTrunk), false, false).run();
        }
    }

    private FileSink.Applied begin(FileSink sink, Path root) {
        List<WalkedEntry> trunk = new ArrayList<>();
        FileStat rootStat;
        try {
            Path prefix = root.getRoot();
            if (prefix != null && !prefix.equals(root)) {
                trunk.add(new WalkedEntry(prefix.toString(), walker.stat(prefix)));
                for (int i = 0; i < root.getNameCount() - 1; i++) {
                    prefix = prefix.resolve(root.getName(i).toString());
                    trunk.add(new WalkedEntry(root.getName(i).toString(), walker.stat(prefix)));
                }
            }
            rootStat = walker.stat(root);
        } catch (IOException e) {
            throw new ScanFailedException("scan root cannot be read: " + root + " (" + e + "); nothing was deleted", e);
        }
        // A followed link back to any directory above the root would list the root again, so those count as
        // ancestors too, not only the directories inside the scan.
        Ancestors chain = null;
        for (WalkedEntry e : trunk) {
            chain = new Ancestors(e.stat().fileKey(), chain);
        }
        rootAndTrunk = new Ancestors(rootStat.fileKey(), chain);
        FileSink.Applied top = sink.begin(trunk, new WalkedEntry(nameOf(root), rootStat), root);
        added += top.added();
        modified += top.modified();
        moved += top.moved();
        unchanged += top.unchanged();
        skipped += top.skipped();
        return top;
    }

    /**
     * Directories with more entries than this are listed, and applied, in parts of this many, each in its own
     * transaction: a scan's memory then does not grow with the size of the largest directory. Larger parts cost more
     * memory (about 150 bytes an entry, a few parts at a time) and fewer transactions: each part's rows land all over
     * the directory's index, so each part rewrites about as many index pages as it has rows. Tests make parts small
     * through {@link io.fsindex.core.internal.IndexInternals.Parts#listingPartEntries}, for one index only.
     */
    public static final int PART_ENTRIES = 32_768;

    private final int partEntries;

    void checkNotCancelled() {
        if (cancelled || Thread.currentThread().isInterrupted()) {
            throw new CancellationException("scan " + scanId + " was cancelled; nothing was deleted");
        }
    }

    private ScanResult removeMissingRoot(FileSink sink, Path abs, long start) {
        Path parent = abs.getParent();
        List<WalkedEntry> trunk = new ArrayList<>();
        if (parent != null) {
            Path realParent = RealPaths.resolve(parent);    // as lookups resolve it, so they agree on the row
            trunk.add(new WalkedEntry(realParent.getRoot().toString(), null));
            for (Path name : realParent) {
                trunk.add(new WalkedEntry(name.toString(), null));
            }
        }
        listener.started(scanId, abs);
        sink.removeRoot(trunk, nameOf(abs));
        long deleted = sink.finish(true);
        ScanResult result = new ScanResult(scanId, abs, 0, 0, 0, 0, deleted, 0, errors,
                Duration.ofNanos(System.nanoTime() - start));
        listener.finished(result);
        return result;
    }

    void report(ScanError error) {
        errors.add(error);
        listener.error(error);
    }

    private static String nameOf(Path path) {
        Path name = path.getFileName();
        return name == null ? Objects.requireNonNull(path.getRoot()).toString() : name.toString();
    }
}
