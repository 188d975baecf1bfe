package io.fsindex.core.scope;

import io.fsindex.api.FileStat;
import io.fsindex.api.MountChangedException;
import io.fsindex.api.ScanScope;
import io.fsindex.api.ScopeException;
import io.fsindex.api.Walker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Plans one scan's scope as it starts (on the scan's own thread, before its first listing), from the rules and devices stored with the index: which rules govern the
 * scan's root and the roots below it, whether the root itself is excluded (refused with a {@link ScopeException}),
 * whether it or a directory above it now sits on another device than recorded (refused with a
 * {@link MountChangedException}), and the rules to store when the scan brings rules and none govern its root yet.
 * Internal to fsindex.
 */
public final class ScopePlanner {
    /** A device in {@link ScopedWalker#foundMounts()} that means: drop the record, it is no mount point now. */
    public static final long NO_DEVICE = Long.MIN_VALUE;

    /** A scope root with its rules, compiled. */
    static final class Governing {
        final Path root;
        final ScanScope scope;
        final IgnoreRules rules;

        Governing(Path root, ScanScope scope) {
            this.root = root;
            this.scope = scope;
            this.rules = IgnoreRules.compile(scope.excludes(), scope.ignoreCase());
        }

        String relative(Path directory) {
            Path r = root.relativize(directory);
            return r.toString().isEmpty() ? "" : r.toString().replace(java.io.File.separatorChar, '/');
        }

        int depth(Path directory) {
            return directory.getNameCount() - root.getNameCount();
        }
    }

    /**
     * The plan: the walker to scan with, and what to store before the scan starts.
     *
     * @param walker      applies the rules to the walk
     * @param storeRules  rules to store for {@link #root} (the scan brought them and none governed it), or null
     * @param root        the scan's root as a real path, or null if it could not be resolved (the scan reports that)
     * @param rootDevice  the device to record for the root, or null to leave its record as it is
     */
    public record Plan(ScopedWalker walker, ScanScope storeRules, Path root, Long rootDevice) {
    }

    private ScopePlanner() {
    }

    /**
     * Plans a scan of {@code requested}.
     *
     * @param delegate        the scan's walker
     * @param requested       the path to scan, as given
     * @param scopes          every stored scope root (real paths) with its rules
     * @param devices         every recorded directory (real paths) with its device
     * @param given           the rules the scan was given, or null
     * @param acceptMountChanges whether a directory on another device than recorded is indexed as it is now
     * @param ownFiles        files that are never content (the index's database files)
     * @return the plan
     * @throws ScopeException        if {@code given} differs from the governing rules, or they exclude the root
     * @throws MountChangedException if the root or a directory above it moved to another device
     */
    public static Plan plan(Walker delegate, Path requested, Map<Path, ScanScope> scopes, Map<Path, Long> devices,
                            ScanScope given, boolean acceptMountChanges, Set<Path> ownFiles) {
        Map<Path, Set<String>> own = new HashMap<>();
        for (Path f : ownFiles) {
            if (f.getParent() != null && f.getFileName() != null) {
                own.computeIfAbsent(f.getParent(), k -> new java.util.HashSet<>()).add(f.getFileName().toString());
            }
        }
        Path root;
        FileStat rootStat;
        try {
            root = requested.toAbsolutePath().normalize().toRealPath();
            rootStat = delegate.stat(root);
        } catch (IOException | RuntimeException unresolved) {
            // The scan reports a missing or unreadable root itself (or removes it, when asked to).
            ScopedWalker passThrough = new ScopedWalker(delegate, requested.toAbsolutePath().normalize(), null, null,
                    new Governing(requested.toAbsolutePath().normalize(), ScanScope.defaults()), Map.of(), Map.of(),
                    true, own);
            return new Plan(passThrough, null, null, null);
        }
        Path governingRoot = null;
        for (Path p = root; p != null; p = p.getParent()) {
            if (scopes.containsKey(p)) {
                governingRoot = p;
                break;
            }
        }
        ScanScope storeRules = null;
        Governing governing;
        if (governingRoot == null) {
            governing = new Governing(root, given != null ? given : ScanScope.defaults());
            storeRules = given;
        } else {
            ScanScope stored = scopes.get(governingRoot);
            if (given != null && !given.equals(stored)) {
                throw new ScopeException("the rules given for the scan of " + root + " differ from those stored for "
                        + governingRoot + " (stored: " + ScopeCodec.describe(stored) + "; given: "
                        + ScopeCodec.describe(given) + "); nothing was scanned. Scan without rules to apply the stored"
                        + " ones, or change them first (FsIndex.setScope, fsindex scope set)");
            }
            governing = new Governing(governingRoot, stored);
        }
        Long rootDevice = Devices.of(rootStat);
        ScopedWalker.Decision rootDecision = checkTrunk(delegate, root, rootDevice, governing, devices,
                acceptMountChanges);
        Map<Path, Governing> inner = new HashMap<>();
        for (Map.Entry<Path, ScanScope> s : scopes.entrySet()) {
            if (s.getKey().startsWith(root) && !s.getKey().equals(root)) {
                inner.put(s.getKey(), new Governing(s.getKey(), s.getValue()));
            }
        }
        Long recorded = devices.get(root);
        Long storeDevice = rootDevice != null && !rootDevice.equals(recorded) ? rootDevice : null;
        ScopedWalker walker = new ScopedWalker(delegate, root, rootDevice, rootDecision, governing, inner, devices,
                acceptMountChanges, own);
        return new Plan(walker, storeRules, root, storeDevice);
    }

    /**
     * Checks the directories from the governing root down to the scan root: none may be excluded, and none that was
     * recorded (nor any recorded directory above) may sit on another device now. Returns what the walk does with
     * the scan root itself: null to list it, or {@link ScopedWalker.Decision#PRUNED} when it is recorded but not
     * listed.
     */
    private static ScopedWalker.Decision checkTrunk(Walker walker, Path root, Long rootDevice, Governing g,
                                                    Map<Path, Long> devices, boolean accept) {
        Map<Path, Long> seen = new HashMap<>();
        seen.put(root, rootDevice);
        for (Path p = root; p != null; p = p.getParent()) {
            Long recorded = devices.get(p);
            if (recorded == null || accept) {
                continue;
            }
            Long now = p.equals(root) ? rootDevice : deviceOrNull(walker, p);
            if (now != null && !now.equals(recorded)) {
                throw new MountChangedException(p + (p.equals(root) ? ", the scan's root," : ", above the scan's root,")
                        + " was on " + Devices.show(recorded) + " when last scanned and is now on "
                        + Devices.show(now) + ": most likely the disk mounted there is gone and the bare mount point"
                        + " shows through. Nothing was scanned or deleted; mount it again, or scan with"
                        + " acceptMountChanges (fsindex scan --accept-mount-changes) if the change is real");
            }
        }
        if (root.equals(g.root)) {
            return null;
        }
        ScopedWalker.Decision decision = null;
        Long parentDevice = deviceOrNull(walker, g.root);
        for (int i = g.root.getNameCount(); i < root.getNameCount(); i++) {
            Path p = g.root.getRoot().resolve(root.subpath(0, i + 1));
            Path parent = p.getParent();
            String relativeParent = g.relative(parent);
            if (!g.rules.isEmpty() && g.rules.excludes(relativeParent, p.getFileName().toString(), true)) {
                throw excluded(root, g, p, "its exclude patterns leave out " + g.relative(p));
            }
            if (decision == ScopedWalker.Decision.PRUNED) {
                throw excluded(root, g, p, "they record " + parent + " but do not list it");
            }
            Long device = p.equals(root) ? rootDevice : deviceOrNull(walker, p);
            boolean mountPoint = Devices.isMountPoint(device, parentDevice);
            if (ScopeRules.tooDeep(g, false, p) || mountPoint && ScopeRules.prunesMountPoint(g, p)) {
                decision = ScopedWalker.Decision.PRUNED;
            }
            parentDevice = device;
        }
        return decision;
    }

    private static ScopeException excluded(Path root, Governing g, Path where, String why) {
        return new ScopeException("the rules stored for " + g.root + " exclude " + where + ": " + why
                + "; nothing was scanned. Scan " + g.root + " to apply them, or change them (FsIndex.setScope,"
                + " fsindex scope set)" + (where.equals(root) ? "" : " to scan " + root));
    }

    private static Long deviceOrNull(Walker walker, Path p) {
        try {
            return Devices.of(walker.stat(p));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
