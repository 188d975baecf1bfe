package io.fsindex.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.fsindex.api.IndexReader;
import io.fsindex.core.FsIndex;
import io.fsindex.core.spi.FsTables;
import io.fsindex.testkit.TestDatabase;
import io.fsindex.testkit.Trees;
import java.nio.file.Path;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresDataSourceTest {
    @TempDir
    Path tmp;

    /** Given only a URL, fsindex pools connections itself (HikariCP) and closes the pool, and every connection in
     *  it, when the index is closed; an application's server must not collect leaked sessions. */
    @Test
    void theIndexClosesThePoolItOpenedForAUrl() throws Exception {
        TestDatabase shared = PostgresTestServer.database();
        String application = "fsindex-pool-test-" + ProcessHandle.current().pid();
        TestDatabase db = new TestDatabase(shared.jdbcUrl() + (shared.jdbcUrl().contains("?") ? "&" : "?")
                + "ApplicationName=" + application, shared.user(), shared.password());
        String prefix = TestDatabase.freshPrefix();
        Path root = tmp.resolve("tree");
        Trees.create(root, "a/", "a/f.txt");

        try (PgSession monitor = new PgSession(shared, new FsTables(prefix))) {
            String sessions = "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?";
            FsIndex index = db.builder(prefix).build();
            index.scan(root);
            assertThat(index.databaseName()).isEqualTo("PostgreSQL");
            assertThat(monitor.queryLong(sessions, application)).isPositive();

            index.close();
            // A backend leaves pg_stat_activity shortly after its client disconnects; wait for that, boundedly.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (monitor.queryLong(sessions, application) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(monitor.queryLong(sessions, application)).isZero();
        }
    }

    /** The pool fsindex opens takes the builder's size and reports to the application's registry, a reader's too. */
    @Test
    void thePoolIsSizedAndObservedAsTheBuilderSays() throws Exception {
        TestDatabase db = PostgresTestServer.database();
        String prefix = TestDatabase.freshPrefix();
        Path root = tmp.resolve("tree");
        Trees.create(root, "a/", "a/f.txt");
        MeterRegistry registry = new SimpleMeterRegistry();
        try (FsIndex index = db.builder(prefix).maxPoolSize(3).metricRegistry(registry).build()) {
            index.scan(root);
            assertThat(registry.get("hikaricp.connections.max").tag("pool", "fsindex-postgresql").gauge().value())
                    .isEqualTo(3);
            assertThat(registry.get("hikaricp.connections.acquire").tag("pool", "fsindex-postgresql").timer()
                    .count()).isPositive();
        }
        MeterRegistry readerRegistry = new SimpleMeterRegistry();
        try (IndexReader reader = db.builder(prefix).maxPoolSize(2).metricRegistry(readerRegistry).buildReader()) {
            assertThat(reader.lookup(root.resolve("a/f.txt"))).isPresent();
            assertThat(readerRegistry.get("hikaricp.connections.max").gauge().value()).isEqualTo(2);
        }
    }
}
