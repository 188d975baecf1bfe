package io.fsindex.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many scanners, one database: overlapping full and subtree scans from several threads and from several JVM
 * processes, while the tree changes under them. No scan may fail, and once the tree is still, scans alone must bring
 * the index back to the tree. A dialect's test extends this class like {@link FsIndexConformanceTest}.
 */
public abstract class ConcurrentScanConformanceTest {
    /** The scan roots: the whole tree and nested subtrees of it, so every scan overlaps at least one other. */
    private static final List<String> SCAN_ROOTS = List.of("", "a", "a/b", "c");
    private static final int SCANS_PER_ROOT = 4;

    /** The database under test; called for each test, so return a shared instance. */
    protected abstract TestDatabase database();

    @TempDir
    protected Path tmp;

    private Path tree() {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "top.txt", "a/", "a/x.txt", "a/b/", "a/b/y.txt", "a/b/deep/", "a/b/deep/z.txt",
                "a/side/", "a/side/s.txt", "c/", "c/c.txt", "c/nested/", "c/nested/n.txt");
        for (int i = 0; i < 20; i++) {
            Trees.create(root, "a/b/many/file" + i, "c/many/file" + i);
        }
        return root;
    }

    /** Whether the concurrent scans share one {@link FsIndex} or each has its own. */
    public enum Sharing { OWN_INDEX_PER_THREAD, ONE_SHARED_INDEX }

    /**
     * Guards the retried write transactions (a busy or deadlocked transaction must not fail a scan), the sweep's
     * cascade and the listed_by gate: after the tree stops changing, one more round of concurrent scans alone must
     * make the index equal to the tree.
     */
    @ParameterizedTest
    @EnumSource(Sharing.class)
    void overlappingScansFromManyThreadsWhileTheTreeChanges(Sharing sharing) throws Exception {
        Path root = tree();
        String prefix = TestDatabase.freshPrefix();
        FsIndex shared = database().builder(prefix).build();
        ExecutorService pool = Executors.newFixedThreadPool(SCAN_ROOTS.size() + 1);
        List<FsIndex> own = new ArrayList<>();
        try {
            TreeChurn churn = new TreeChurn(root, SCAN_ROOTS);
            AtomicBoolean scanning = new AtomicBoolean(true);
            CountDownLatch start = new CountDownLatch(1);
            Future<?> churning = pool.submit(() -> {
                start.await();
                while (scanning.get()) {
                    churn.step();
                    LockSupport.parkNanos(200_000); // leave the two CPUs mostly to the scans
                }
                return null;
            });

            List<Future<?>> scans = new ArrayList<>();
            for (String r : SCAN_ROOTS) {
                FsIndex index = sharing == Sharing.ONE_SHARED_INDEX ? shared : database().builder(prefix).build();
                if (index != shared) {
                    own.add(index);
                }
                scans.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < SCANS_PER_ROOT; i++) {
                        ScanResult result = index.scan(root.resolve(r));
                        assertThat(result.errors()).as("scan of /%s", r).isEmpty();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> scan : scans) {
                scan.get(3, TimeUnit.MINUTES); // an exception in any scan fails the test here
            }
            scanning.set(false);
            churning.get();
            assertThat(churn.steps()).as("the tree changed while scanning").isPositive();

            // The tree is still now: one concurrent round of overlapping scans must settle every row.
            CountDownLatch again = new CountDownLatch(1);
            List<Future<?>> settle = new ArrayList<>();
            for (String r : SCAN_ROOTS) {
                settle.add(pool.submit(() -> {
                    again.await();
                    return shared.scan(root.resolve(r));
                }));
            }
            again.countDown();
            for (Future<?> scan : settle) {
                scan.get(3, TimeUnit.MINUTES);
            }
            assertThat(Trees.inIndex(shared, root)).isEqualTo(Trees.onDisk(root));

            ScanResult last = shared.scan(root);
            assertThat(last.errors()).isEmpty();
            assertThat(Trees.inIndex(shared, root)).isEqualTo(Trees.onDisk(root));
            RawIndex raw = new RawIndex(database(), prefix);
            assertThat(raw.orphans()).isZero();
            assertThat(raw.staleRows()).isZero();
            // Every scan inserted the filesystem root at the same moment; a NULL parent must not have let two in.
            assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}files WHERE parent IS NULL")).isOne();
        } finally {
            pool.shutdownNow();
            own.forEach(FsIndex::close);
            shared.close();
        }
    }

    /** Guards the schema lock: connections opening a fresh database at once all succeed and share one schema. */
    @Test
    void manyIndexesOpenedAtOnceOnAFreshDatabaseAllSucceed() throws Exception {
        for (int round = 0; round < 3; round++) {
            String prefix = TestDatabase.freshPrefix();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<FsIndex>> opening = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    opening.add(pool.submit(() -> {
                        start.await();
                        return database().builder(prefix).build();
                    }));
                }
                start.countDown();
                for (Future<FsIndex> f : opening) {
                    f.get(2, TimeUnit.MINUTES).close();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(new RawIndex(database(), prefix).queryLong("SELECT COUNT(*) FROM ${prefix}schema")).isOne();
        }
    }

    /**
     * The same across processes, where no Java lock can help: three JVMs (each with its own connections) create the
     * schema and scan overlapping subtrees of one tree into one database at the same moment, while this JVM changes
     * the tree.
     */
    @Test
    void overlappingScansFromSeveralProcessesWhileTheTreeChanges() throws Exception {
        Path root = tree();
        String prefix = TestDatabase.freshPrefix();
        ChildJvm children = new ChildJvm(tmp, database().properties(prefix));
        try {
            children.start("full", root, SCANS_PER_ROOT);
            children.start("a", root.resolve("a"), SCANS_PER_ROOT);
            children.start("a-b", root.resolve("a/b"), SCANS_PER_ROOT);
            children.releaseWhenAllReady();

            children.churnUntilAllSucceed(new TreeChurn(root, List.of("", "a", "a/b")));
        } finally {
            children.destroyAll();
        }

        RawIndex raw = new RawIndex(database(), prefix);
        try (FsIndex index = database().builder(prefix).build()) {
            assertThat(raw.queryLong("SELECT COUNT(*) FROM ${prefix}scans WHERE state = 'COMPLETED'"))
                    .isEqualTo(3 * SCANS_PER_ROOT);
            index.scan(root);
            assertThat(Trees.inIndex(index, root)).isEqualTo(Trees.onDisk(root));
            assertThat(raw.orphans()).isZero();
            assertThat(raw.staleRows()).isZero();
        }
    }
}
