package io.fsindex.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.DirectoryListing;
import io.fsindex.api.ScanListener;
import io.fsindex.api.ScanOptions;
import io.fsindex.api.ScanResult;
import io.fsindex.core.FsIndex;
import io.fsindex.testkit.ForwardingWalker;
import io.fsindex.testkit.Trees;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Micrometer meters of real scans of an SQLite index, read from a {@link SimpleMeterRegistry}. */
class FsIndexMetricsTest {
    private static final Tags TAGS = Tags.of("index", "test");

    @TempDir
    Path tmp;

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private FsIndex open() {
        return FsIndex.builder().jdbcUrl("jdbc:sqlite:" + tmp.resolve("index.db")).changeFeedCapacity(3).build();
    }

    private double rows(String change) {
        return registry.get("fsindex.scan.rows").tags(TAGS).tag("change", change).counter().count();
    }

    @Test
    void completedScansAreTimedAndTheirRowsCounted() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x.txt", "b.txt", "c.txt");
        ScanMetrics metrics = new ScanMetrics(registry, TAGS);
        try (FsIndex index = open()) {
            ScanResult first = index.scan(root, ScanOptions.defaults().withListener(metrics));
            Trees.delete(root.resolve("c.txt"));
            List<ScanResult> seenByNext = new ArrayList<>();
            index.scan(root, ScanOptions.defaults().withListener(metrics.andThen(new ScanListener() {
                @Override
                public void finished(ScanResult result) {
                    seenByNext.add(result);
                }
            })));

            assertThat(seenByNext).hasSize(1);
            ScanResult second = seenByNext.get(0);
            assertThat(registry.get("fsindex.scan.duration").tags(TAGS).timer().count()).isEqualTo(2);
            assertThat(registry.get("fsindex.scan.duration").tags(TAGS).timer().totalTime(TimeUnit.NANOSECONDS))
                    .isEqualTo(first.duration().toNanos() + second.duration().toNanos());
            assertThat(rows("added")).isEqualTo(first.added()).isPositive();
            assertThat(rows("deleted")).isEqualTo(1);
            assertThat(rows("modified")).isEqualTo(first.modified() + second.modified());
            assertThat(rows("moved")).isZero();
            assertThat(registry.get("fsindex.scan.entries").tags(TAGS).counter().count())
                    .isEqualTo(first.added() + first.unchanged() + second.added() + second.modified()
                            + second.unchanged());
            assertThat(registry.get("fsindex.scan.entries.rate").tags(TAGS).summary().count()).isEqualTo(2);
            assertThat(registry.get("fsindex.scan.errors").tags(TAGS).counter().count()).isZero();
        }
    }

    @Test
    void unreadableEntriesAreCountedAsErrors() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x.txt", "b/");
        Path unreadable = root.resolve("a").toRealPath();
        ForwardingWalker walker = new ForwardingWalker() {
            @Override
            public DirectoryListing list(Path directory) throws IOException {
                if (directory.equals(unreadable)) {
                    throw new AccessDeniedException(directory.toString());
                }
                return super.list(directory);
            }
        };
        ScanMetrics metrics = new ScanMetrics(registry, TAGS);
        try (FsIndex index = open()) {
            ScanResult result = index.scan(root, ScanOptions.defaults().withWalker(walker).withListener(metrics));
            assertThat(result.errors()).hasSize(1);
            assertThat(registry.get("fsindex.scan.errors").tags(TAGS).counter().count()).isEqualTo(1);
        }
    }

    @Test
    void theIndexMetersReadTheFeedAndTheRetriesAndNaNOnceClosed() throws Exception {
        Path root = tmp.resolve("tree");
        Trees.create(root, "./", "a/", "a/x.txt", "b.txt", "c.txt", "d.txt");
        FsIndex index = open();
        new FsIndexMetrics(index, TAGS).bindTo(registry);
        index.scan(root);

        double end = registry.get("fsindex.changefeed.end").tags(TAGS).gauge().value();
        assertThat(end).isEqualTo(index.changeFeedEnd()).isGreaterThan(3);
        assertThat(registry.get("fsindex.changefeed.length").tags(TAGS).gauge().value())
                .as("pruned to the capacity of 3").isEqualTo(index.changeFeedLength()).isEqualTo(3);
        assertThat(registry.get("fsindex.transaction.retries").tags(TAGS).functionCounter().count())
                .isEqualTo(index.transactionRetries());

        index.close();
        assertThat(registry.get("fsindex.changefeed.end").tags(TAGS).gauge().value()).isNaN();
    }
}
