package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.Change;
import io.fsindex.api.ChangeBatch;
import io.fsindex.api.ChangeType;
import io.fsindex.api.ScanListener;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the change-feed suites share: reading the whole feed page by page, describing changes by relative path, a
 * listener that records what it hears, and the check that numbers run without gaps.
 */
public abstract class ChangeFeedFixture extends IndexTest {

    /** Every change so far, as the feed gives them page by page from {@code cursor}. */
    static List<Change> drain(FsIndex index, long cursor) {
        List<Change> out = new ArrayList<>();
        while (true) {
            ChangeBatch page = index.changesSince(cursor, 7);
            assertThat(page.resyncNeeded()).isFalse();
            if (page.changes().isEmpty()) {
                return out;
            }
            out.addAll(page.changes());
            cursor = page.nextCursor();
        }
    }

    /** The changes below {@code root}, each as "TYPE path" (relative), "TYPE old -> new" for moves. */
    static List<String> described(List<Change> changes, Path root) {
        List<String> out = new ArrayList<>();
        for (Change c : changes) {
            if (!c.path().startsWith(root) || c.path().equals(root)) {
                continue;
            }
            String path = root.relativize(c.path()).toString();
            out.add(c.type() == ChangeType.MOVED
                    ? "MOVED " + root.relativize(c.previousPath()) + " -> " + path
                    : c.type() + " " + path);
        }
        return out;
    }

    /** A listener that records every change it hears. */
    static final class Recording implements ScanListener {
        final List<Change> changes = new CopyOnWriteArrayList<>();

        @Override
        public void changed(Change change) {
            changes.add(change);
        }
    }

    static void assertContiguous(List<Change> changes) {
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).seq()).as("change after %s", changes.get(i - 1))
                    .isEqualTo(changes.get(i - 1).seq() + 1);
        }
    }
}
