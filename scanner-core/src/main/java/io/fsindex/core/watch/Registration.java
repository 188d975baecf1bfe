package io.fsindex.core.watch;

import io.fsindex.api.ScanError;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a watch registers: every directory of the tree that its scans list (not those the stored rules
 * exclude, nor those they record without listing: too deep, or a pruned mount point), following changes of the
 * rules; and what cannot be registered (the kernel's watch limit, another registration error), which is reported,
 * scanned now and every {@code unwatchedRescanEvery}, and tried again each time.
 */
final class Registration {
    private static final Logger LOG = LoggerFactory.getLogger(TreeWatcher.class);

    private final Path root;
    private final DirectoryRegistry registry;
    private final WatchedScope scope;
    private final PendingWork pending;
    private final WatchReports reports;
    private final Duration unwatchedRescanEvery;
    /** Subtrees that could not be registered. */
    private final Set<Path> unwatched = ConcurrentHashMap.newKeySet();

    Registration(Path root, DirectoryRegistry registry, WatchedScope scope, PendingWork pending, WatchReports reports,
                 Duration unwatchedRescanEvery) {
        this.root = root;
        this.registry = registry;
        this.scope = scope;
        this.pending = pending;
        this.reports = reports;
        this.unwatchedRescanEvery = unwatchedRescanEvery;
    }

    /**
     * Whether a scan leaves {@code dir}, a directory that appeared in a registered (so listed) directory, unlisted
     * under the stored rules, so that it is not registered.
     */
    boolean leavesOut(Path dir) {
        return scope.leavesOut(dir, WatchedScope.fileKey(dir), WatchedScope.fileKey(dir.getParent()));
    }

    /** How many subtrees could not be registered. */
    int unwatchedSubtrees() {
        return unwatched.size();
    }

    /** Registers a tree; what cannot be registered is reported and scanned periodically instead. */
    void registerTree(Path top) {
        registerTree(top, Set.of());
    }

    /** As {@link #registerTree(Path)}; a failure for a directory in {@code reported} is not reported again. */
    private void registerTree(Path top, Set<Path> reported) {
        for (DirectoryRegistry.Failure f : registry.registerTree(top, scope::leavesOut)) {
            unwatched.removeIf(p -> p.startsWith(f.directory()));
            unwatched.add(f.directory());
            if (reported.contains(f.directory())) {
                pending.subtree(f.directory(), System.nanoTime(), 0);
                continue;
            }
            String what = f.isWatchLimit()
                    ? "the kernel's limit of inotify watches is reached; raise it (sysctl"
                    + " fs.inotify.max_user_watches=1048576, and in /etc/sysctl.d to keep it)"
                    : "it cannot be registered for change notifications (" + f.cause().getMessage() + ")";
            reports.fallback(f.directory(), ScanError.Reason.NOT_WATCHED, "cannot watch " + f.directory() + ": "
                    + what + "; until it can be watched, its subtree is scanned every "
                    + unwatchedRescanEvery);
            pending.subtree(f.directory(), System.nanoTime(), 0);
        }
    }

    /**
     * Reads the stored rules again with a round of scans (once it has started them); if they changed, registers the
     * tree anew under them (dropping what they now leave out, adding what they no longer do) and scans it whole,
     * which applies them.
     */
    void followRuleChanges() {
        if (scope.refresh()) {
            LOG.info("the rules stored for {} changed; registering and scanning it again", root);
            registry.forgetIf(scope::leavesOut);
            registerTree(root);
            pending.subtree(root, System.nanoTime(), 0);
        }
    }

    /** Scans the unwatched subtrees and tries to watch them again. */
    void retryUnwatched(long now) {
        Set<Path> before = Set.copyOf(unwatched);
        for (Path p : before) {
            unwatched.remove(p);
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                registerTree(p, before);         // puts it back if it still cannot be watched
                pending.subtree(p, now, 0);
            } else if (p.getParent() != null && p.startsWith(root)) {
                pending.directory(p.getParent(), false, now);
            }
        }
        if (!before.isEmpty() && unwatched.isEmpty()) {
            LOG.info("every directory below {} is watched again", root);
        }
    }
}
