package io.fsindex.spring;

import io.fsindex.api.ScanScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The scan rules for one root ({@code fsindex.scopes[N].*}), stored with {@link io.fsindex.core.FsIndex#setScope}
 * when the context starts, so every scan of the root, from this application or any other process, applies them.
 * Unset fields keep {@link ScanScope#defaults()}.
 */
public class FsIndexScopeProperties {
    /** The root the rules are for. */
    private Path root;
    /** Exclude patterns in .gitignore syntax, relative to the root. */
    private List<String> excludes = new ArrayList<>();
    /** Whether the patterns match names regardless of ASCII letter case. */
    private boolean ignoreCase;
    /** Record mount points below the root but do not list them. */
    private boolean oneFileSystem;
    /** Filesystem types whose mount points are recorded but not listed (default: kernel and virtual filesystems). */
    private Set<String> prunedFsTypes;
    /** How many levels below the root are recorded, at least 1 (default: no limit). */
    private Integer maxDepth;

    /** The rules these fields describe. */
    ScanScope toScanScope() {
        ScanScope scope = ScanScope.defaults().withExcludes(excludes).withIgnoreCase(ignoreCase)
                .withOneFileSystem(oneFileSystem);
        if (prunedFsTypes != null) {
            scope = scope.withPrunedFsTypes(prunedFsTypes);
        }
        return maxDepth == null ? scope : scope.withMaxDepth(maxDepth);
    }

    /** @return the root */
    public Path getRoot() {
        return root;
    }

    /** @param root the root the rules are for */
    public void setRoot(Path root) {
        this.root = root;
    }

    /** @return the exclude patterns */
    public List<String> getExcludes() {
        return excludes;
    }

    /** @param excludes exclude patterns in .gitignore syntax */
    public void setExcludes(List<String> excludes) {
        this.excludes = excludes;
    }

    /** @return whether the patterns ignore ASCII letter case */
    public boolean isIgnoreCase() {
        return ignoreCase;
    }

    /** @param ignoreCase whether the patterns ignore ASCII letter case */
    public void setIgnoreCase(boolean ignoreCase) {
        this.ignoreCase = ignoreCase;
    }

    /** @return whether scans stay on the root's filesystem */
    public boolean isOneFileSystem() {
        return oneFileSystem;
    }

    /** @param oneFileSystem whether scans stay on the root's filesystem */
    public void setOneFileSystem(boolean oneFileSystem) {
        this.oneFileSystem = oneFileSystem;
    }

    /** @return the pruned filesystem types, or {@code null} for the defaults */
    public Set<String> getPrunedFsTypes() {
        return prunedFsTypes;
    }

    /** @param prunedFsTypes filesystem types whose mount points are not listed */
    public void setPrunedFsTypes(Set<String> prunedFsTypes) {
        this.prunedFsTypes = prunedFsTypes;
    }

    /** @return the depth limit, or {@code null} for none */
    public Integer getMaxDepth() {
        return maxDepth;
    }

    /** @param maxDepth how many levels below the root are recorded */
    public void setMaxDepth(Integer maxDepth) {
        this.maxDepth = maxDepth;
    }
}
