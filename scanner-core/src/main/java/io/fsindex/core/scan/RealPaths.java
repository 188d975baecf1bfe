package io.fsindex.core.scan;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How a path given by a caller becomes the path the index stores it under. A scan stores its root as the root's real
 * path (links followed, {@code .} and {@code ..} resolved), so reads resolve what they are given the same way here,
 * or a root scanned through a link could not be found through that link.
 */
public final class RealPaths {
    private RealPaths() {
    }

    /**
     * Returns {@code path} made absolute with its longest existing prefix replaced by that prefix's real path and the
     * rest appended as given. An entry still recorded but gone from disk is thus found through a link above it; a
     * path with nothing existing below its filesystem root comes back absolute and normalised.
     */
    public static Path resolve(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null) {
            try {
                Path real = existing.toRealPath();
                return existing == abs ? real : real.resolve(existing.relativize(abs));
            } catch (IOException e) {
                existing = existing.getParent();    // missing, or a dangling link: try the directory above
            }
        }
        return abs;
    }

    /**
     * Like {@link #resolve} but with the final name kept as it is, never followed: the path of a link itself rather
     * than of its target.
     */
    public static Path resolveParent(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path parent = abs.getParent();
        return parent == null || abs.getFileName() == null ? abs : resolve(parent).resolve(abs.getFileName());
    }
}
