package io.fsindex.core.scope;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.FileStat;
import io.fsindex.api.WalkedEntry;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Applies the stored rules to one scan's walk: wraps the scan's walker and leaves out of each listing what the rules
 * exclude, hands over an empty listing for a directory that is recorded but not listed (too deep, or a mount point
 * pruned by type or by {@code oneFileSystem}), and refuses to list a directory that sits on another device than
 * recorded (the scan then keeps its rows as they were). It never lists an excluded directory, so nothing below one is
 * read. The directory's state is decided while its parent is listed, from what the parent's listing read. One
 * instance per scan; built by {@link ScopePlanner}. Internal to fsindex.
 */
public final class ScopedWalker implements Walker {
    /** What the walk does with a directory, decided when its parent was listed. */
    enum Decision { PRUNED, GUARDED }

    private final Walker delegate;
    private final Path scanRoot;
    /** What the rules leave out: the decision the watch's registration shares. */
    private final ScopeRules rules;
    private final Map<Path, Long> recordedDevices;
    private final boolean acceptMountChanges;
    /** Files never indexed as content (the index's own database files), by directory. */
    private final Map<Path, Set<String>> ownFiles;

    private final Map<Path, Decision> decisions = new ConcurrentHashMap<>();
    private final Map<Path, String> guardMessages = new ConcurrentHashMap<>();
    /** The device of the scan root and of every directory found on another device than its parent. */
    private final Map<Path, Long> devices = new ConcurrentHashMap<>();
    /** Mount points to record once the scan completes (a null device: a record to drop). */
    private final Map<Path, Long> foundMounts = new ConcurrentHashMap<>();

    ScopedWalker(Walker delegate, Path scanRoot, Long rootDevice, Decision rootDecision,
                 ScopePlanner.Governing rootScope, Map<Path, ScopePlanner.Governing> innerScopes,
                 Map<Path, Long> recordedDevices, boolean acceptMountChanges, Map<Path, Set<String>> ownFiles) {
        this.delegate = delegate;
        this.scanRoot = scanRoot;
        this.rules = new ScopeRules(scanRoot, rootScope, innerScopes);
        this.recordedDevices = recordedDevices;
        this.acceptMountChanges = acceptMountChanges;
        this.ownFiles = ownFiles;
        if (rootDevice != null) {
            devices.put(scanRoot, rootDevice);
        }
        if (rootDecision != null) {
            decisions.put(scanRoot, rootDecision);
        }
    }

    /** {@return the mount points this walk found, to record once the scan completed (null: drop the record)} */
    public Map<Path, Long> foundMounts() {
        return new HashMap<>(foundMounts);
    }

    /**
     * Reads an entry's attributes; an entry below the scan's root that the rules exclude reads as not there, as it is
     * to the index (the sink asks whether a row's file is still there when it compares a huge directory part by part,
     * and an excluded entry's row must go).
     */
    @Override
    public FileStat stat(Path path) throws IOException {
        FileStat stat = delegate.stat(path);
        Path parent = path.getParent();
        if (parent != null && path.getFileName() != null && parent.startsWith(scanRoot)) {
            String name = path.getFileName().toString();
            Set<String> own = ownFiles.get(parent);
            if (own != null && own.contains(name) || rules.excludes(parent, name, stat.isDirectory())) {
                throw new java.nio.file.NoSuchFileException(path.toString(), null, "excluded by the root's rules");
            }
        }
        return stat;
    }

    @Override
    public FileStat statFollowingLinks(Path path) throws IOException {
        return delegate.statFollowingLinks(path);
    }

    @Override
    public DirectoryListing list(Path directory) throws IOException {
        List<WalkedEntry> entries = new ArrayList<>();
        List<io.fsindex.api.ScanError> problems = new ArrayList<>();
        list(directory, Integer.MAX_VALUE, part -> {
            entries.addAll(part.entries());
            problems.addAll(part.problems());
        });
        return new DirectoryListing(entries, problems);
    }

    @Override
    public void list(Path directory, int partSize, Parts parts) throws IOException {
        Decision decision = decisions.remove(directory);
        if (decision == Decision.GUARDED) {
            throw new MountChanged(guardMessages.remove(directory));
        }
        if (decision == Decision.PRUNED) {
            parts.accept(new DirectoryListing(List.of(), List.of()));
            return;
        }
        ScopePlanner.Governing scope = rules.governing(directory);
        String relative = scope.relative(directory);
        Long device = deviceOf(directory);
        Set<String> own = ownFiles.get(directory);
        delegate.list(directory, partSize, part -> parts.accept(
                filter(directory, part, scope, relative, device, own)));
    }

    private DirectoryListing filter(Path directory, DirectoryListing part, ScopePlanner.Governing scope,
                                    String relative, Long device, Set<String> own) {
        List<WalkedEntry> kept = null;                 // stays null while every entry is kept
        List<WalkedEntry> entries = part.entries();
        for (int i = 0; i < entries.size(); i++) {
            WalkedEntry e = entries.get(i);
            boolean directoryEntry = e.isReadable() && e.stat().isDirectory();
            boolean keep = (own == null || !own.contains(e.name()))
                    && !ScopeRules.excludes(scope, relative, e.name(), directoryEntry);
            if (keep && directoryEntry) {
                decide(directory.resolve(e.name()), e.stat(), scope, device);
            }
            if (!keep && kept == null) {
                kept = new ArrayList<>(entries.subList(0, i));
            } else if (keep && kept != null) {
                kept.add(e);
            }
        }
        return kept == null ? part : new DirectoryListing(kept, part.problems());
    }

    /** Decides, from what its parent's listing read, what the walk does with subdirectory {@code child}. */
    private void decide(Path child, FileStat stat, ScopePlanner.Governing parentScope, Long parentDevice) {
        ScopePlanner.Governing own = rules.rootedAt(child);
        ScopePlanner.Governing scope = own != null ? own : parentScope;
        Long device = Devices.of(stat);
        Long recorded = recordedDevices.get(child);
        if (recorded != null && device != null && !recorded.equals(device)) {
            if (!acceptMountChanges) {
                decisions.put(child, Decision.GUARDED);
                guardMessages.put(child, child + " was on " + Devices.show(recorded) + " when last scanned and is now"
                        + " on " + Devices.show(device) + (device.equals(parentDevice) ? ", its parent's (the disk"
                        + " mounted there is most likely gone)" : "") + "; its rows were kept as they were."
                        + " Mount it again, or scan with acceptMountChanges to index what is there now");
                return;
            }
            foundMounts.put(child, device.equals(parentDevice) ? ScopePlanner.NO_DEVICE : device);
        }
        if (Devices.isMountPoint(device, parentDevice)) {
            devices.put(child, device);
            if (ScopeRules.prunesMountPoint(scope, child)) {
                decisions.put(child, Decision.PRUNED);
                return;
            }
            if (recorded == null) {
                foundMounts.put(child, device);
            }
        }
        if (ScopeRules.tooDeep(scope, own != null, child)) {
            decisions.put(child, Decision.PRUNED);
        }
    }

    private Long deviceOf(Path directory) {
        for (Path p = directory; p != null; p = p.getParent()) {
            Long d = devices.get(p);
            if (d != null) {
                return d;
            }
            if (p.equals(scanRoot)) {
                return null;
            }
        }
        return null;
    }

    /** Listing a directory that now sits on another device than recorded: the scan keeps its rows as they were. */
    static final class MountChanged extends IOException {
        MountChanged(String message) {
            super(message);
        }
    }
}
