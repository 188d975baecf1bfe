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
    private final Map<Long, Path> paths = new HashMap<>();

    /** Each entry's path after replaying {@code changes} in order; entries deleted last are left out. */
    public static Map<Long, Path> paths(List<Change> changes) {
        ReplayedFeed replayed = new ReplayedFeed();
        changes.forEach(replayed::apply);
        return replayed.paths();
    }

    /** Replays one more change. */
    public void apply(Change change) {
        if (change.type() == ChangeType.MOVED) {
            Path from = change.previousPath();
            paths.replaceAll((id, p) -> p.startsWith(from) ? change.path().resolve(from.relativize(p)) : p);
        }
        if (change.type() == ChangeType.DELETED) {
            paths.remove(change.id());
        } else {
            paths.put(change.id(), change.path());
        }
    }

    /** Whether the changes replayed so far leave entry {@code id} in the index. */
    public boolean has(long id) {
        return paths.containsKey(id);
    }

    /** Each entry's path after the changes replayed so far (a view). */
    public Map<Long, Path> paths() {
        return paths;
    }
}
