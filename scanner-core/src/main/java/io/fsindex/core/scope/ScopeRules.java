package io.fsindex.core.scope;

import io.fsindex.api.ScanScope;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Which entries of a tree the stored rules leave out of the index, and which directories a scan records but does not
 * list (too deep, or a mount point pruned by {@code oneFileSystem} or by type): the one decision that a scan's walker
 * ({@link ScopedWalker}) applies to every listing and that a watch applies to the directories it registers, so the
 * two can never disagree. The rules of the nearest scope root at or above a directory govern it. Immutable and
 * thread-safe. Internal to fsindex.
 */
public final class ScopeRules {
    private final Path top;
    private final ScopePlanner.Governing topScope;
    /** Scope roots strictly below {@link #top}, whose own rules govern their subtrees. */
    private final Map<Path, ScopePlanner.Governing> innerScopes;

    ScopeRules(Path top, ScopePlanner.Governing topScope, Map<Path, ScopePlanner.Governing> innerScopes) {
        this.top = top;
        this.topScope = topScope;
        this.innerScopes = innerScopes;
    }

    /**
     * The rules that govern {@code root} and everything below it.
     *
     * @param root   a real path
     * @param scopes every stored scope root (real paths) with its rules, as {@code FsIndex.scopes()} returns them
     * @return the rules; the defaults (nothing left out) where none are stored at or above {@code root}
     */
    public static ScopeRules of(Path root, Map<Path, ScanScope> scopes) {
        ScopePlanner.Governing governing = new ScopePlanner.Governing(root, ScanScope.defaults());
        for (Path p = root; p != null; p = p.getParent()) {
            ScanScope s = scopes.get(p);
            if (s != null) {
                governing = new ScopePlanner.Governing(p, s);
                break;
            }
        }
        Map<Path, ScopePlanner.Governing> inner = new HashMap<>();
        scopes.forEach((p, s) -> {
            if (p.startsWith(root) && !p.equals(root)) {
                inner.put(p, new ScopePlanner.Governing(p, s));
            }
        });
        return new ScopeRules(root, governing, inner);
    }

    /** {@return true if these rules can neither leave out nor leave unlisted any directory} */
    public boolean isEmpty() {
        return listsEverything(topScope) && innerScopes.values().stream().allMatch(ScopeRules::listsEverything);
    }

    private static boolean listsEverything(ScopePlanner.Governing g) {
        return g.rules.isEmpty() && g.scope.maxDepth() == ScanScope.UNLIMITED && !g.scope.oneFileSystem()
                && g.scope.prunedFsTypes().isEmpty();
    }

    /**
     * Whether a scan lists directory {@code child}, found in a listing of its parent: not if the rules exclude it,
     * nor if they record it without listing it (deeper than {@code maxDepth}, or a mount point that
     * {@code oneFileSystem} or the pruned filesystem types leave unlisted).
     *
     * @param child           a directory strictly below the top these rules were made for
     * @param fileKey         the child's file key as the platform gives it (device and inode on Unix), or null
     * @param parentFileKey   its parent's, or null
     * @return true if a scan lists it
     */
    public boolean lists(Path child, Object fileKey, Object parentFileKey) {
        Path parent = child.getParent();
        ScopePlanner.Governing parentScope = governing(parent);
        if (excludes(parentScope, parentScope.relative(parent), child.getFileName().toString(), true)) {
            return false;
        }
        ScopePlanner.Governing own = rootedAt(child);
        ScopePlanner.Governing scope = own != null ? own : parentScope;
        boolean mountPoint = Devices.isMountPoint(Devices.of(fileKey), Devices.of(parentFileKey));
        return !(mountPoint && prunesMountPoint(scope, child)) && !tooDeep(scope, own != null, child);
    }

    /** Whether {@code scope} records mount point {@code mountPoint} without listing it. */
    static boolean prunesMountPoint(ScopePlanner.Governing scope, Path mountPoint) {
        return scope.scope.oneFileSystem() || !scope.scope.prunedFsTypes().isEmpty()
                && scope.scope.prunedFsTypes().contains(fsType(mountPoint));
    }

    /**
     * Whether {@code scope} records {@code directory} without listing it as deeper than its {@code maxDepth}; a scope
     * root of its own ({@code ownRoot}) starts counting again.
     */
    static boolean tooDeep(ScopePlanner.Governing scope, boolean ownRoot, Path directory) {
        return !ownRoot && scope.depth(directory) >= scope.scope.maxDepth();
    }

    private static String fsType(Path p) {
        try {
            return java.nio.file.Files.getFileStore(p).type();
        } catch (java.io.IOException | RuntimeException unknown) {
            return "";
        }
    }

    /**
     * Decides one entry.
     *
     * @param directory   the directory holding it, at or below the top these rules were made for
     * @param name        its name
     * @param isDirectory whether it is a directory
     * @return true if the rules governing {@code directory} leave it out
     */
    public boolean excludes(Path directory, String name, boolean isDirectory) {
        ScopePlanner.Governing scope = governing(directory);
        return excludes(scope, scope.relative(directory), name, isDirectory);
    }

    /** As {@link #excludes(Path, String, boolean)}, for a listing's loop that resolved its directory once. */
    static boolean excludes(ScopePlanner.Governing scope, String relativeDirectory, String name, boolean isDirectory) {
        return !scope.rules.isEmpty() && scope.rules.excludes(relativeDirectory, name, isDirectory);
    }

    /** The scope root whose rules govern {@code directory}: the nearest at or above it. */
    ScopePlanner.Governing governing(Path directory) {
        if (!innerScopes.isEmpty()) {
            for (Path p = directory; p != null && p.startsWith(top); p = p.getParent()) {
                ScopePlanner.Governing g = innerScopes.get(p);
                if (g != null) {
                    return g;
                }
            }
        }
        return topScope;
    }

    /** The rules stored for exactly {@code directory} if it is a scope root below the top, else null. */
    ScopePlanner.Governing rootedAt(Path directory) {
        return innerScopes.get(directory);
    }
}
