package io.fsindex.core.watch;

import io.fsindex.api.ScanScope;
import io.fsindex.core.FsIndex;
import io.fsindex.core.scope.ScopeRules;
import java.nio.file.Path;
import java.util.Map;

/**
 * The root's stored rules as the watch applies them to what it registers: a directory they leave out, or one inside
 * such a directory, is not registered, so it costs no inotify watch and its changes no event (its parent's scans
 * keep it out of the index anyway). The decision is the scans' own ({@link ScopeRules}). The rules are read again
 * before each round of scans, never while the watch is idle; a change is reported by {@link #refresh}.
 */
final class WatchedScope {
    private final FsIndex index;
    private final Path root;
    private Map<Path, ScanScope> stored;
    private volatile ScopeRules rules;

    WatchedScope(FsIndex index, Path root) {
        this.index = index;
        this.root = root;
        this.stored = index.scopes();
        this.rules = ScopeRules.of(root, stored);
    }

    /** Reads the stored rules again; true if they changed since last read. */
    synchronized boolean refresh() {
        Map<Path, ScanScope> now = index.scopes();
        if (now.equals(stored)) {
            return false;
        }
        stored = now;
        rules = ScopeRules.of(root, now);
        return true;
    }

    /** Whether {@code dir} (the root or below it) is left out by the rules, or lies inside a directory that is. */
    boolean leavesOut(Path dir) {
        ScopeRules r = rules;
        if (!dir.startsWith(root) || dir.equals(root) || r.isEmpty()) {
            return false;
        }
        Path at = root;
        for (Path name : root.relativize(dir)) {
            if (r.excludes(at, name.toString(), true)) {
                return true;
            }
            at = at.resolve(name);
        }
        return false;
    }
}
