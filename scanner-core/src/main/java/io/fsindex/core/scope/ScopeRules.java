package io.fsindex.core.scope;

import io.fsindex.api.ScanScope;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Which entries of a tree the stored rules leave out of the index: the one decision that a scan's walker
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

    /** {@return true if these rules can leave nothing out} */
    public boolean isEmpty() {
        if (!topScope.rules.isEmpty()) {
            return false;
        }
        return innerScopes.values().stream().allMatch(g -> g.rules.isEmpty());
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
