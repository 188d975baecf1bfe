package io.fsindex.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.FsIndexConfigurationException;
import io.fsindex.api.IndexWatch;
import io.fsindex.api.ScanScope;
import io.fsindex.core.FsIndex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The starter's settings beyond the builder's basics, in a real application context on SQLite: name search, scopes, watches. */
class FsIndexStarterSettingsTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(FsIndexAutoConfiguration.class));

    @TempDir
    Path dir;

    @Test
    void nameSearchIndexAndPoolSizeComeFromProperties() throws Exception {
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.name-search-index=true", "fsindex.maxPoolSize=4")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(tables()).contains("fsindex_files_names");

        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.nameSearchIndex=false")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(tables()).as("turned off: dropped on opening").doesNotContain("fsindex_files_names");

        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.nameSearchIndex=maybe")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(FsIndexConfigurationException.class)
                        .hasStackTraceContaining("fsindex.nameSearchIndex"));
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.max-pool-size=none")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("fsindex.maxPoolSize"));
    }

    @Test
    void scanIdAllocationComesFromProperties() {
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.scan-id-allocation=native")
                .run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.scan-id-allocation=sideways")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(FsIndexConfigurationException.class)
                        .hasStackTraceContaining("fsindex.scanIdAllocation"));
    }

    @Test
    void scopesAreStoredForTheirRootsAndScansApplyThem() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/build/deep/deeper"));
        tree = tree.getParent().getParent().getParent().toRealPath();
        Files.writeString(tree.resolve("keep.txt"), "k");
        Files.writeString(tree.resolve("skip.TMP"), "s");
        Files.writeString(tree.resolve("build/deep/deeper/far.txt"), "f");
        Path root = tree;
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.scopes[0].root=" + root,
                        "fsindex.scopes[0].excludes=*.tmp,/nothing/", "fsindex.scopes[0].ignore-case=true",
                        "fsindex.scopes[0].max-depth=2", "fsindex.scopes[0].pruned-fs-types=proc,sysfs")
                .run(context -> {
                    FsIndex index = context.getBean(FsIndex.class);
                    assertThat(index.scope(root)).contains(ScanScope.defaults().withExcludes("*.tmp", "/nothing/")
                            .withIgnoreCase(true).withMaxDepth(2).withPrunedFsTypes(Set.of("proc", "sysfs")));
                    index.scan(root);
                    assertThat(index.lookup(root.resolve("keep.txt"))).isPresent();
                    assertThat(index.lookup(root.resolve("skip.TMP"))).as("excluded, case ignored").isEmpty();
                    assertThat(index.lookup(root.resolve("build/deep"))).as("depth 2").isPresent();
                    assertThat(index.lookup(root.resolve("build/deep/deeper"))).as("below depth 2").isEmpty();
                });

        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.scopes[0].excludes=*.tmp")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(FsIndexConfigurationException.class)
                        .hasStackTraceContaining("fsindex.scopes[N].root"));
    }

    @Test
    void watchedRootsAreKeptCurrentWhileTheContextRuns() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("watched")).toRealPath();
        Files.writeString(tree.resolve("first.txt"), "1");
        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.watch.roots=" + tree,
                        "fsindex.watch.settle=50ms", "fsindex.watch.rescan-every=1h")
                .run(context -> {
                    FsIndex index = context.getBean(FsIndex.class);
                    List<IndexWatch> watches = context.getBean(FsIndexWatches.class).watches();
                    assertThat(watches).extracting(IndexWatch::root).containsExactly(tree);
                    assertThat(index.lookup(tree.resolve("first.txt"))).as("scanned as the watch started").isPresent();
                    Files.writeString(tree.resolve("later.txt"), "2");
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (index.lookup(tree.resolve("later.txt")).isEmpty() && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    assertThat(index.lookup(tree.resolve("later.txt"))).as("indexed by the watch").isPresent();
                });

        runner.withPropertyValues("fsindex.url=" + sqlite(), "fsindex.watch.roots=" + tree,
                        "fsindex.watch.settle=soon")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("fsindex.watch.settle: 'soon' is not a duration"));
        runner.withPropertyValues("fsindex.url=" + sqlite())
                .run(context -> assertThat(context.getBean(FsIndexWatches.class).watches()).isEmpty());
    }

    private String sqlite() {
        return "jdbc:sqlite:" + dir.resolve("index.db");
    }

    private List<String> tables() throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(sqlite());
             ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME"));
            }
        }
        return names;
    }
}
