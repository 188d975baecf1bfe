package io.fsindex.core.watch;

import io.fsindex.api.ScanScope;
import io.fsindex.core.FsIndex;
import io.fsindex.core.scope.ScopeRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;

/**
 * The root's stored rules as the watch applies them to what it registers: a directory a scan does not list (the rules
 * exclude it, or record it without listing it: deeper than {@code maxDepth}, a mount point pruned by
 * {@code oneFileSystem} or by type), or one inside such a directory, is not registered, so it costs no inotify watch
 * and its changes no event (its parent's scans record it or keep it out anyway). The decision is the scans' own
 * ({@link ScopeRules#lists}). The rules are read again
 * with each round of scans, never while the watch is idle; a change is reported by {@link #refresh}.
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

    /**
     * Whether a scan leaves {@code dir} (the root or below it) unlisted: the rules exclude it or a directory above it,
     * or record one of them without listing it (too deep, a pruned mount point). Reads the attributes of the
     * directories from the root down to {@code dir} when the rules could leave something unlisted.
     */
    boolean leavesOut(Path dir) {
        ScopeRules r = rules;
        if (!dir.startsWith(root) || dir.equals(root) || r.isEmpty()) {
            return false;
        }
        Path at = root;
        Object atKey = fileKey(root);
        for (Path name : root.relativize(dir)) {
            Path child = at.resolve(name);
            Object childKey = fileKey(child);
            if (!r.lists(child, childKey, atKey)) {
                return true;
            }
            at = child;
            atKey = childKey;
        }
        return false;
    }

    /**
     * As {@link #leavesOut(Path)} for a directory whose parent a scan lists, from the file keys a walk of the tree
     * read already ({@code BasicFileAttributes.fileKey()}, null if unknown).
     */
    boolean leavesOut(Path dir, Object fileKey, Object parentFileKey) {
        ScopeRules r = rules;
        return dir.startsWith(root) && !dir.equals(root) && !r.isEmpty() && !r.lists(dir, fileKey, parentFileKey);
    }

    /** The file key of {@code p} (device and inode on Unix), or null if it cannot be read. */
    static Object fileKey(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException | RuntimeException unknown) {
            return null;
        }
    }
}
