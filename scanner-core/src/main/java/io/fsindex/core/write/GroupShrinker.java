package io.fsindex.core.write;

import io.fsindex.api.FileSink.Directory;
import io.fsindex.api.WalkedEntry;
import io.fsindex.core.internal.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a group of listings in one transaction and, when that transaction keeps failing on conflicts with
 * concurrent ones (serialization failures, deadlocks), in two halves, each of which is split again while it keeps
 * failing, down to one listing a transaction. The longer a transaction runs, the likelier a concurrent commit
 * conflicts with it: at SERIALIZABLE (CockroachDB's only level) a large group retried whole can fail for ever
 * while smaller ones get through, so a scan shrinks its transactions instead of livelocking. A listing alone is
 * retried for the whole retry timeout, as every transaction is.
 *
 * <p>Splitting does what the one transaction would have done: a listing whose directory another listing of the
 * group claims (its directory not known yet) is applied in a later half with the directory the earlier half
 * claimed, or not at all if no listing claimed it, exactly as {@link ListingWaves#applyGroup} resolves it within
 * one transaction.
 */
final class GroupShrinker {
    private static final Logger LOG = LoggerFactory.getLogger(GroupShrinker.class);
    /** Conflicts a group of more than one listing may meet before it is split. */
    static final int CONFLICTS_BEFORE_SPLIT = 3;

    private final WriteContext ctx;
    private final ListingWaves waves;

    GroupShrinker(WriteContext ctx, ListingWaves waves) {
        this.ctx = ctx;
        this.waves = waves;
    }

    List<ListingWaves.GroupResult> apply(List<Path> paths, List<Directory> dirs, List<List<WalkedEntry>> listings) {
        if (paths.size() < 2) {
            return ctx.write(conn -> waves.applyGroup(paths, dirs, listings));
        }
        try {
            return ctx.write(conn -> waves.applyGroup(paths, dirs, listings), CONFLICTS_BEFORE_SPLIT);
        } catch (Database.KeepsConflicting e) {
            int half = paths.size() / 2;
            ctx.db().countGroupSplit();
            LOG.info("scan {}: a group of {} listings conflicted with concurrent transactions {} times; applying it"
                    + " as groups of {} and {}", ctx.scan(), paths.size(), e.conflicts(), half, paths.size() - half);
            List<ListingWaves.GroupResult> out = new ArrayList<>(apply(paths.subList(0, half),
                    dirs.subList(0, half), listings.subList(0, half)));
            Map<Path, Directory> claimed = new HashMap<>();
            for (ListingWaves.GroupResult r : out) {
                if (r.applied() != null) {
                    r.applied().subdirectories().forEach(sub -> claimed.put(sub.path(), sub));
                }
            }
            List<Directory> rest = new ArrayList<>(paths.size() - half);
            for (int i = half; i < paths.size(); i++) {
                rest.add(dirs.get(i) != null ? dirs.get(i) : claimed.get(paths.get(i)));
            }
            out.addAll(apply(paths.subList(half, paths.size()), rest, listings.subList(half, paths.size())));
            return out;
        }
    }
}
