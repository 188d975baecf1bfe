package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanScope;
import io.fsindex.api.WatchOptions;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a watch registers under the stored rules, on the real filesystem and a real database: only the directories its
 * scans list, so a directory recorded but not listed (deeper than {@code maxDepth}, or a mount point that
 * {@code oneFileSystem} or a pruned filesystem type leaves unlisted) costs no inotify watch, at the start, when
 * created later, and after a change of the rules. The mount is a real {@code tmpfs} (the test runs as root, as the
 * watch registers what is really mounted); excluded directories are covered by {@link WatchConformanceTest}.
 */
public abstract class WatchScopeConformanceTest extends IndexTest {
    private static final Duration CONVERGE = Duration.ofSeconds(60);
    private IndexWatch watch;
    private ScopeMountConformanceTest.Mount mount;

    @AfterEach
    void closeWatchAndUnmount() {
        if (watch != null) {
            watch.close();
        }
        if (mount != null) {
            mount.unmount();
        }
    }

    private IndexWatch watch(FsIndex index, Path root) {
        watch = index.watch(root, WatchOptions.defaults().withSettle(Duration.ofMillis(100)));
        return watch;
    }

    /** Waits until {@code condition} holds; fails with {@code what} after {@link #CONVERGE}. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited %s for: %s", CONVERGE, what).isLessThan(deadline);
            Thread.sleep(50);    // the watch works on threads of its own: only polling shows its progress
        }
    }

    // maxDepth 2 lists the root and its subdirectories and records theirs without listing them: those are not
    // registered, nor is one created later; once the rules allow any depth, the watch registers and follows them.
    @Test
    void directoriesBelowTheMaxDepthAreNotRegistered() throws Exception {
        Path root = tree("a/", "a/b/", "a/b/c/", "a/b/c/deep.txt", "e/");
        FsIndex index = openIndex();
        index.setScope(root, ScanScope.defaults().withMaxDepth(2));
        IndexWatch w = watch(index, root);
        assertThat(w.state().watchedDirectories()).as("root, a, e").isEqualTo(3);
        assertThat(index.lookup(root.resolve("a/b"))).as("recorded").isPresent();
        assertThat(index.lookup(root.resolve("a/b/c"))).as("not listed").isEmpty();

        Trees.create(root, "e/f/", "e/f/g/");
        await("e/f recorded", () -> index.lookup(root.resolve("e/f")).isPresent());
        await("no work pending", () -> w.state().pendingDirectories() == 0);
        assertThat(w.state().watchedDirectories()).as("e/f is recorded, not listed").isEqualTo(3);

        index.setScope(root, ScanScope.defaults());
        Trees.create(root, "a/later.txt");            // a round of scans reads the rules again
        await("a/b/c/deep.txt indexed", () -> index.lookup(root.resolve("a/b/c/deep.txt")).isPresent());
        await("every directory registered", () -> w.state().watchedDirectories() == 7);
        Trees.create(root, "a/b/c/new.txt");
        await("an event in a/b/c followed", () -> index.lookup(root.resolve("a/b/c/new.txt")).isPresent());
    }

    // A tmpfs mounted in the tree: oneFileSystem, then a pruned filesystem type, record the mount point without
    // listing it, so neither it nor anything below it is registered; once neither applies, the watch follows it.
    @Test
    void aMountPointTheRulesPruneIsNotRegistered() throws Exception {
        Path root = tree("a.txt", "disk/", "kept/");
        mount = ScopeMountConformanceTest.Mount.at(root.resolve("disk"));
        assertThat(mount.walker).as("this test needs a real mount: run it as root (CAP_SYS_ADMIN)").isNull();
        Trees.create(root, "disk/sub/", "disk/sub/in.txt");
        FsIndex index = openIndex();
        index.setScope(root, ScanScope.defaults().withOneFileSystem(true));
        IndexWatch w = watch(index, root);
        assertThat(w.state().watchedDirectories()).as("root, kept").isEqualTo(2);
        assertThat(index.lookup(root.resolve("disk"))).as("recorded").isPresent();
        assertThat(index.lookup(root.resolve("disk/sub"))).as("not listed").isEmpty();

        index.setScope(root, ScanScope.defaults().withPrunedFsTypes(Set.of(mount.fsType())));
        Trees.create(root, "kept/1.txt");             // a round of scans reads the rules again
        await("kept/1.txt indexed", () -> index.lookup(root.resolve("kept/1.txt")).isPresent());
        await("no work pending", () -> w.state().pendingDirectories() == 0);
        assertThat(w.state().watchedDirectories()).as("the tmpfs is pruned by type").isEqualTo(2);

        index.setScope(root, ScanScope.defaults());
        Trees.create(root, "kept/2.txt");
        await("disk/sub/in.txt indexed", () -> index.lookup(root.resolve("disk/sub/in.txt")).isPresent());
        await("the mount registered", () -> w.state().watchedDirectories() == 4);
        Trees.create(root, "disk/sub/new.txt");
        await("an event on the tmpfs followed", () -> index.lookup(root.resolve("disk/sub/new.txt")).isPresent());
    }
}
