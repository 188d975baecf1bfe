package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the change feed holds: each kind of change as a listener hears it once committed, names exactly as on disk, and
 * pruning to its capacity, which tells a consumer that fell behind to resync instead of leaving a gap. A dialect's test
 * extends this class like {@link FsIndexConformanceTest}.
 */
public abstract class ChangeFeedContentConformanceTest extends ChangeFeedFixture {

    @Test
    void eachKindOfChangeIsInTheFeedAndTheListenerHearsExactlyTheFeed() throws Exception {
        Path root = tree("a/", "a/x.txt", "b.txt", "d/", "d/y.txt");
        FsIndex index = openIndex();
        Recording first = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(first));
        assertThat(described(first.changes, root)).containsExactlyInAnyOrder(
                "ADDED a", "ADDED a/x.txt", "ADDED b.txt", "ADDED d", "ADDED d/y.txt");
        assertThat(drain(index, 0)).isEqualTo(first.changes);
        long cursor = index.changeFeedEnd();
        long aId = index.lookup(root.resolve("a")).orElseThrow().id();
        long xId = index.lookup(root.resolve("a/x.txt")).orElseThrow().id();

        Files.writeString(root.resolve("b.txt"), "longer than it was");
        Trees.delete(root.resolve("d"));
        Trees.create(root, "c.txt");
        Files.move(root.resolve("a"), root.resolve("a2"));
        Recording second = new Recording();
        ScanResult r = index.scan(root, ScanOptions.defaults().withListener(second));

        List<Change> fed = drain(index, cursor);
        assertThat(second.changes).isEqualTo(fed);
        assertThat(described(fed, root)).containsExactlyInAnyOrder(
                "MODIFIED b.txt", "DELETED d", "DELETED d/y.txt", "ADDED c.txt", "MOVED a -> a2");
        assertThat(fed).filteredOn(c -> c.type() == ChangeType.MOVED).singleElement()
                .satisfies(c -> assertThat(c.id()).isEqualTo(aId));
        assertThat(r.moved()).isEqualTo(1);
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.deleted()).isEqualTo(2);
        assertThat(r.modified()).isGreaterThanOrEqualTo(1);
        assertThat(index.lookup(root.resolve("a2")).orElseThrow().id()).isEqualTo(aId);
        assertThat(index.lookup(root.resolve("a2/x.txt")).orElseThrow().id()).isEqualTo(xId);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
        for (int i = 1; i < fed.size(); i++) {
            assertThat(fed.get(i).seq()).isEqualTo(fed.get(i - 1).seq() + 1);
        }
    }

    /**
     * Names holding what a bulk loader's text escapes (tab, newline, carriage return, backslash, and {@code \N}, the
     * text's null) reach the feed as they are on disk, for new entries and in the directory paths of their children.
     */
    @Test
    void namesABulkLoadEscapesReachTheFeedUnchanged() throws Exception {
        String[] names = {"tab\there", "new\nline", "cr\rhere", "back\\slash", "\\N", "\\\\N", "nul\\0", "ünï ✓"};
        List<String> spec = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (String name : names) {
            spec.add("files/" + name);
            spec.add(name + "/");
            spec.add(name + "/child");
            expected.addAll(List.of("ADDED files/" + name, "ADDED " + name, "ADDED " + name + "/child"));
        }
        spec.add("files/");
        expected.add("ADDED files");
        Path root = tree(spec.toArray(String[]::new));
        FsIndex index = openIndex();
        Recording heard = new Recording();
        index.scan(root, ScanOptions.defaults().withListener(heard));
        List<Change> fed = drain(index, 0);
        assertThat(heard.changes).isEqualTo(fed);
        assertThat(described(fed, root)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
    }

    @Test
    void aConsumerWhoseChangesWerePrunedIsToldToResyncNeverGivenAGap() {
        Path root = tree("a/", "a/1", "a/2", "a/3", "b/", "b/1", "b/2");
        FsIndex index = track(database().builder(TestDatabase.freshPrefix()).changeFeedCapacity(4).build());
        index.scan(root);
        long end = index.changeFeedEnd();
        assertThat(end).isGreaterThan(4);

        ChangeBatch tooOld = index.changesSince(0, 100);
        assertThat(tooOld.resyncNeeded()).isTrue();
        assertThat(tooOld.changes()).isEmpty();
        assertThat(tooOld.nextCursor()).isEqualTo(end);
        ChangeBatch kept = index.changesSince(end - 4, 100);
        assertThat(kept.resyncNeeded()).isFalse();
        assertThat(kept.changes()).extracting(Change::seq).containsExactly(end - 3, end - 2, end - 1, end);
    }

    /**
     * A change names its directory by a row of its own, which pruning drops once no kept change names it, an eighth
     * of the capacity at a time (finding them reads every kept change). Sixty scans, each adding a directory with a
     * file, into a feed of 64: the kept changes all read with their paths, and fewer directory rows than an eighth of
     * the capacity are named by none (without the pruning, every pruned change's would be).
     */
    @Test
    void directoryRowsOfPrunedChangesGoAnEighthOfTheCapacityAtATime() throws Exception {
        Path root = tree("seed.txt");
        String prefix = TestDatabase.freshPrefix();
        FsIndex index = track(database().builder(prefix).changeFeedCapacity(64).build());
        for (int i = 0; i < 60; i++) {
            Files.createDirectories(root.resolve("d" + i));
            Files.writeString(root.resolve("d" + i + "/f.txt"), "f");
            index.scan(root);
        }
        long end = index.changeFeedEnd();
        assertThat(end).as("enough changes to prune many times over").isGreaterThan(2 * 64);

        ChangeBatch kept = index.changesSince(end - 64, 100);
        assertThat(kept.resyncNeeded()).isFalse();
        assertThat(kept.changes()).hasSize(64).allSatisfy(c -> assertThat(c.path()).isNotNull());
        long unnamed = new RawIndex(database(), prefix).queryLong("SELECT COUNT(*) FROM ${prefix}change_dirs d"
                + " WHERE NOT EXISTS (SELECT 1 FROM ${prefix}changes c WHERE c.dir = d.id)");
        assertThat(unnamed).isLessThan(64 / 8);
    }
}
