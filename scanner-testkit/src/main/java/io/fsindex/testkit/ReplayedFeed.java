package io.fsindex.testkit;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a consumer that replays changes in order believes each entry is: an entry is where its last change put it,
 * and a directory's {@code MOVED} takes everything recorded below its previous path along.
 */
public final class ReplayedFeed {
    private ReplayedFeed() {
    }

    /** Each entry's path after replaying {@code changes} in order; entries deleted last are left out. */
    public static Map<Long, Path> paths(List<Change> changes) {
        Map<Long, Path> paths = new HashMap<>();
        for (Change ch : changes) {
            if (ch.type() == ChangeType.MOVED) {
                Path from = ch.previousPath();
                paths.replaceAll((id, p) -> p.startsWith(from) ? ch.path().resolve(from.relativize(p)) : p);
            }
            if (ch.type() == ChangeType.DELETED) {
                paths.remove(ch.id());
            } else {
                paths.put(ch.id(), ch.path());
            }
        }
        return paths;
    }
}
