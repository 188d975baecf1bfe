package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.core.FsIndex;
import io.fsindex.core.internal.IndexInternals;
import io.fsindex.core.scan.NioWalker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A huge directory (listed and applied in parts) that changes between its parts while it is being listed, as the
 * scan's root and as a directory below it: the scan's listener hears exactly the feed, the feed records each change
 * once and replaying it gives the index, a renamed file keeps its row, and the next scan leaves the index equal to
 * the tree (and the one after that records nothing).
 */
public abstract class HugeDirectoryConformanceTest extends IndexTest {
    private static final int FILES = 2_000;
    private static final int PART = 300;

    @Test
    void aHugeDirectoryBelowTheRootChangingWhileListedEndsRightInTheIndexAndTheFeed() throws Exception {
        Path root = bigTree();
        changingWhileListed(root, root.resolve("big"));
    }

    @Test
    void aHugeRootChangingWhileListedEndsRightInTheIndexAndTheFeed() throws Exception {
        Path root = bigTree();
        changingWhileListed(root.resolve("big"), root.resolve("big"));
    }

    private Path bigTree() {
        String[] spec = new String[FILES + 4];
        spec[0] = "big/";
        spec[1] = "big/sub/";
        spec[2] = "big/sub/inner.txt";
        spec[3] = "beside.txt";
        for (int i = 0; i < FILES; i++) {
            spec[i + 4] = "big/" + Integer.toString(i * 7_919 % 100_003, 36) + "-" + i + ".txt";
        }
        return tree(spec);
    }

    private void changingWhileListed(Path scanned, Path big) throws Exception {
        FsIndex index = openIndex();
        IndexInternals.of(index).listingPartEntries(PART);
        RawIndex raw = new RawIndex(database(), prefix());
        try (FeedAudit audit = new FeedAudit(index)) {
            for (int round = 0; round < 3; round++) {
                Churning walker = new Churning(big, round);
                Recording heard = new Recording();
                long cursor = index.changeFeedEnd();
                index.scan(scanned, ScanOptions.defaults().withWalker(walker).withListener(heard));
                assertThat(walker.churned.get()).as("round %d: the directory changed while listed", round).isOne();
                assertThat(heard.changes).as("round %d: the listener heard the feed", round)
                        .isEqualTo(drain(index, cursor));
                audit.catchUp();
                assertThat(audit.problems(CampaignChecks.indexById(raw))).as("round %d", round).isEmpty();

                Recording heardAfter = new Recording();
                // Nothing changes meanwhile: the index is the tree again.
                index.scan(scanned, ScanOptions.defaults().withListener(heardAfter));
                if (round > 0) {
                    // Each file renamed during the listing kept its row: found moved by the scan or the next one.
                    String renamed = "moved-" + round + "-";
                    assertThat(java.util.stream.Stream.concat(heard.changes.stream(), heardAfter.changes.stream())
                            .filter(c -> c.type() == io.fsindex.api.ChangeType.MOVED
                                    && c.path().getFileName().toString().startsWith(renamed)).count())
                            .as("round %d: renamed files recognised as moved", round).isEqualTo(walker.renamed.get());
                }
                assertThat(CampaignChecks.indexEqualsTree(index, scanned)).as("round %d", round).isEmpty();
                assertThat(CampaignChecks.noOrphansOrStaleRows(raw)).isEmpty();
                audit.catchUp();
                assertThat(audit.problems(CampaignChecks.indexById(raw))).as("round %d", round).isEmpty();
                long settled = index.changeFeedEnd();
                index.scan(scanned);
                // (the trunk, e.g. the shared temporary directory, may change meanwhile)
                assertThat(drain(index, settled)).as("round %d: an unchanged rescan records nothing", round)
                        .noneMatch(c -> c.path().startsWith(scanned));
            }
        }
    }

    private static List<Change> drain(FsIndex index, long cursor) {
        List<Change> out = new ArrayList<>();
        while (true) {
            var page = index.changesSince(cursor, 1_000);
            out.addAll(page.changes());
            if (page.changes().isEmpty()) {
                return out;
            }
            cursor = page.nextCursor();
        }
    }

    /**
     * Lists the huge directory part by part from the disk, and after its second part deletes, renames, rewrites
     * and creates files in it, among the names read already and those still to come.
     */
    private static final class Churning extends ForwardingWalker {
        private final NioWalker disk = new NioWalker();
        private final Path big;
        private final int round;
        final AtomicInteger churned = new AtomicInteger();
        final AtomicInteger renamed = new AtomicInteger();

        Churning(Path big, int round) {
            this.big = big;
            this.round = round;
        }

        @Override
        public void list(Path directory, int partSize, Parts parts) throws IOException {
            if (!directory.equals(big)) {
                disk.list(directory, partSize, parts);
                return;
            }
            int[] seen = {0};
            disk.list(directory, partSize, part -> {
                parts.accept(part);
                if (++seen[0] == 2) {
                    churn();
                }
            });
        }

        private void churn() {
            churned.incrementAndGet();
            try (var names = Files.list(big)) {
                List<Path> files = names.filter(p -> p.getFileName().toString().endsWith(".txt")).sorted().toList();
                Map<String, Integer> done = new HashMap<>();
                for (int i = round; i < files.size(); i += 97) {
                    Path f = files.get(i);
                    switch ((i / 97) % 4) {
                        case 0 -> Files.delete(f);
                        case 1 -> {
                            Files.move(f, f.resolveSibling("moved-" + round + "-" + f.getFileName()));
                            renamed.incrementAndGet();
                        }
                        case 2 -> Files.writeString(f, "rewritten in round " + round);
                        default -> Files.writeString(f.resolveSibling("new-" + round + "-" + i + ".txt"), "new");
                    }
                    done.merge("changes", 1, Integer::sum);
                }
                assertThat(done.get("changes")).isGreaterThan(10);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class Recording implements ScanListener {
        final List<Change> changes = new CopyOnWriteArrayList<>();

        @Override
        public void changed(Change change) {
            changes.add(change);
        }
    }
}
